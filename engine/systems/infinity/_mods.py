"""Infinity CodeOne MODs by name (RULES.md §3, "Common MODs", seed 002).

An attack's MODs are named so the embed can show each one: Cover −3, Mimetism −3 or −6,
the range band of the weapon's profile for the distance, and any other MODs as a number.
Their sum is what the roll uses; :func:`engine.systems.infinity.clamp_mods` then holds it to
±12 (the breakdown says so when the cap bites). A weapon's profile is given as its bands,
``"40:+3,80:-3,120:-6"`` for the seed's Combi Rifle: +3 up to 40 cm, −3 up to 80, −6 up
to 120, out of range beyond.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.errors import N_
from engine.systems.infinity._sv import (
    MOD_CAP,
    MODS_RANGE,
    InfinityError,
    Translate,
    clamp_mods,
    plain,
)

COVER = -3
"""Cover: −3 to the attacker (and +3 to the target's saving roll)."""
MIMETISM = (-3, -6)
PLAIN = N_("MODs")
COVER_NAME = N_("Cover")
MIMETISM_NAME = N_("Mimetism")
RANGE_NAME = N_("Range {distance} (up to {up_to})")
MAX_BANDS = 10
MAX_DISTANCE = 10_000
_BAND = re.compile(r"^\s*(\d{1,5})\s*:\s*([+\-−]?)\s*(\d{1,2})\s*$")


@dataclass(frozen=True, slots=True)
class Band:
    """One range band of a weapon: this MOD up to ``up_to`` (the previous band's top excluded)."""

    up_to: int
    mod: int


@dataclass(frozen=True, slots=True)
class NamedMod:
    """One MOD: its English name (a message id), its value, and for a range MOD the distance
    and the band's top, so that its name can be written in the player's language."""

    name: str
    value: int
    distance: int | None = None
    up_to: int | None = None

    def label(self, tr: Translate = plain) -> str:
        """The name to show (``Range 60 (up to 80)``, ``Cover``) in ``tr``'s language."""
        if self.distance is not None and self.up_to is not None:
            return tr(RANGE_NAME, distance=self.distance, up_to=self.up_to)
        return tr(self.name)


@dataclass(frozen=True, slots=True)
class Mods:
    """Every MOD of one roll by name, their sum, and the sum that applies (within ±12)."""

    named: tuple[NamedMod, ...]

    @property
    def total(self) -> int:
        return sum(mod.value for mod in self.named)

    @property
    def applied(self) -> int:
        return clamp_mods(self.total)

    @property
    def for_roll(self) -> int:
        """The MODs to roll with: the sum, or (past what a roll takes) the capped sum, which
        gives the same Success Value."""
        low, high = MODS_RANGE
        return self.total if low <= self.total <= high else self.applied

    @property
    def named_beyond_plain(self) -> bool:
        """Some MOD has a name of its own (not just the number typed as ``mods``)."""
        return any(mod.name != PLAIN for mod in self.named)

    @property
    def capped(self) -> bool:
        """The ±12 cap bites: part of the MODs is ignored."""
        return self.applied != self.total

    def text(self, tr: Translate = plain) -> str:
        """``Range 60 cm −3 · Cover −3 · Mimetism −6 = −12`` (and the cap when it bites)."""
        shown = " · ".join(f"{mod.label(tr)} {_signed(mod.value)}" for mod in self.named)
        text = f"{shown} = {_signed(self.total)}"
        if self.capped:
            text += tr(
                N_(", capped at {applied} (MODs are held to ±{cap})"),
                applied=_signed(self.applied),
                cap=MOD_CAP,
            )
        return text


def _signed(value: int) -> str:
    return f"+{value}" if value >= 0 else f"−{-value}"


def parse_bands(text: str) -> tuple[Band, ...]:
    """``"40:+3,80:-3,120:-6"`` as bands, checked: distances rising, MODs within ±12."""
    items = [item for item in re.split(r"[,;]", text) if item.strip()]
    if not items:
        raise InfinityError(
            N_("Give the weapon's range bands as distance:MOD, e.g. 40:+3,80:-3,120:-6."),
            field="range",
            value=text,
        )
    if len(items) > MAX_BANDS:
        raise InfinityError(
            N_("A weapon has at most {most} range bands."),
            field="range",
            value=text,
            most=MAX_BANDS,
        )
    bands: list[Band] = []
    for item in items:
        match = _BAND.match(item)
        if match is None:
            raise InfinityError(
                N_("`{item}` is not a range band: write distance:MOD, e.g. 40:+3."),
                field="range",
                value=text,
                item=item.strip(),
            )
        up_to = int(match.group(1))
        mod = int(match.group(3)) * (-1 if match.group(2) in ("-", "−") else 1)
        if not 1 <= up_to <= MAX_DISTANCE or abs(mod) > MOD_CAP:
            raise InfinityError(
                N_("A range band runs up to 1…{most} with a MOD of at most ±{cap} (got {item})."),
                field="range",
                value=text,
                most=MAX_DISTANCE,
                cap=MOD_CAP,
                item=item.strip(),
            )
        if bands and up_to <= bands[-1].up_to:
            raise InfinityError(
                N_("Range bands go from the nearest to the farthest (each distance larger)."),
                field="range",
                value=text,
            )
        bands.append(Band(up_to, mod))
    return tuple(bands)


def band_for(bands: tuple[Band, ...], distance: int) -> Band:
    """The band a target at ``distance`` falls in (its top included); beyond the last one the
    target is out of range and the attack cannot be made."""
    if isinstance(distance, bool) or not isinstance(distance, int):
        raise InfinityError(
            N_("The distance must be a whole number."), field="distance", value=distance
        )
    if not 0 <= distance <= MAX_DISTANCE:
        raise InfinityError(
            N_("The distance must be between 0 and {most}."),
            field="distance",
            value=distance,
            most=MAX_DISTANCE,
        )
    for band in bands:
        if distance <= band.up_to:
            return band
    raise InfinityError(
        N_("At {distance} the target is out of range (the weapon reaches {reach})."),
        field="distance",
        value=distance,
        distance=distance,
        reach=bands[-1].up_to,
    )


def attack_mods(
    *,
    mods: int = 0,
    cover: bool = False,
    mimetism: int = 0,
    bands: str | None = None,
    distance: int | None = None,
) -> Mods:
    """The named MODs of an attack: range band, cover, mimetism, then any other MODs."""
    if (
        isinstance(mods, bool)
        or not isinstance(mods, int)
        or not (MODS_RANGE[0] <= mods <= MODS_RANGE[1])
    ):
        raise InfinityError(
            N_("MODs must be a whole number between {low} and {high}."),
            field="mods",
            value=mods,
            low=MODS_RANGE[0],
            high=MODS_RANGE[1],
        )
    if mimetism not in (0, *MIMETISM):
        raise InfinityError(N_("Mimetism is −3 or −6."), field="mimetism", value=mimetism)
    if (bands is None) != (distance is None):
        raise InfinityError(
            N_("A range MOD needs both the weapon's range bands and the distance to the target."),
            field="range",
            value=bands,
        )
    named: list[NamedMod] = []
    if bands is not None and distance is not None:
        band = band_for(parse_bands(bands), distance)
        name = plain(RANGE_NAME, distance=distance, up_to=band.up_to)
        named.append(NamedMod(name, band.mod, distance, band.up_to))
    if cover:
        named.append(NamedMod(COVER_NAME, COVER))
    if mimetism:
        named.append(NamedMod(MIMETISM_NAME, mimetism))
    if mods:
        named.append(NamedMod(PLAIN, mods))
    return Mods(tuple(named))

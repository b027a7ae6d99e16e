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

from engine.systems.infinity import MOD_CAP, MODS_RANGE, InfinityError, clamp_mods

COVER = -3
"""Cover: −3 to the attacker (and +3 to the target's saving roll)."""
MIMETISM = (-3, -6)
PLAIN = "MODs"
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
    name: str
    value: int


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

    def text(self) -> str:
        """``Range 60 cm −3 · Cover −3 · Mimetism −6 = −12`` (and the cap when it bites)."""
        shown = " · ".join(f"{mod.name} {_signed(mod.value)}" for mod in self.named)
        text = f"{shown} = {_signed(self.total)}"
        if self.capped:
            text += f", capped at {_signed(self.applied)} (MODs are held to ±{MOD_CAP})"
        return text


def _signed(value: int) -> str:
    return f"+{value}" if value >= 0 else f"−{-value}"


def parse_bands(text: str) -> tuple[Band, ...]:
    """``"40:+3,80:-3,120:-6"`` as bands, checked: distances rising, MODs within ±12."""
    items = [item for item in re.split(r"[,;]", text) if item.strip()]
    if not items:
        raise InfinityError(
            "Give the weapon's range bands as distance:MOD, e.g. 40:+3,80:-3,120:-6.",
            field="range",
            value=text,
        )
    if len(items) > MAX_BANDS:
        raise InfinityError(
            f"A weapon has at most {MAX_BANDS} range bands.", field="range", value=text
        )
    bands: list[Band] = []
    for item in items:
        match = _BAND.match(item)
        if match is None:
            raise InfinityError(
                f"`{item.strip()}` is not a range band: write distance:MOD, e.g. 40:+3.",
                field="range",
                value=text,
            )
        up_to = int(match.group(1))
        mod = int(match.group(3)) * (-1 if match.group(2) in ("-", "−") else 1)
        if not 1 <= up_to <= MAX_DISTANCE or abs(mod) > MOD_CAP:
            raise InfinityError(
                f"A range band runs up to 1…{MAX_DISTANCE} with a MOD of at most ±{MOD_CAP} "
                f"(got {item.strip()}).",
                field="range",
                value=text,
            )
        if bands and up_to <= bands[-1].up_to:
            raise InfinityError(
                "Range bands go from the nearest to the farthest (each distance larger).",
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
            "The distance must be a whole number.", field="distance", value=distance
        )
    if not 0 <= distance <= MAX_DISTANCE:
        raise InfinityError(
            f"The distance must be between 0 and {MAX_DISTANCE}.", field="distance", value=distance
        )
    for band in bands:
        if distance <= band.up_to:
            return band
    raise InfinityError(
        f"At {distance} the target is out of range (the weapon reaches {bands[-1].up_to}).",
        field="distance",
        value=distance,
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
            f"MODs must be a whole number between {MODS_RANGE[0]} and {MODS_RANGE[1]}.",
            field="mods",
            value=mods,
        )
    if mimetism not in (0, *MIMETISM):
        raise InfinityError("Mimetism is −3 or −6.", field="mimetism", value=mimetism)
    if (bands is None) != (distance is None):
        raise InfinityError(
            "A range MOD needs both the weapon's range bands and the distance to the target.",
            field="range",
            value=bands,
        )
    named: list[NamedMod] = []
    if bands is not None and distance is not None:
        band = band_for(parse_bands(bands), distance)
        named.append(NamedMod(f"Range {distance} (up to {band.up_to})", band.mod))
    if cover:
        named.append(NamedMod("Cover", COVER))
    if mimetism:
        named.append(NamedMod("Mimetism", mimetism))
    if mods:
        named.append(NamedMod(PLAIN, mods))
    return Mods(tuple(named))

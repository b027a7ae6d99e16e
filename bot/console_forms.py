"""Forms (Discord modals) in the console: what a form asks, and ``/fill name:value …``.

Kept apart from :mod:`bot.console` so that the console only stores the latest form each
user was shown and hands ``/fill`` lines here.
"""

from __future__ import annotations

from typing import Any

from bot.commandline import CommandLineError, split_words

TEXT_INPUT = 4


def fields(modal: dict[str, Any]) -> list[dict[str, Any]]:
    """A form's text fields, in order (inside action rows or labels)."""
    found: list[dict[str, Any]] = []

    def walk(components: list[dict[str, Any]]) -> None:
        for component in components:
            if component.get("type") == TEXT_INPUT:
                found.append(component)
            walk(component.get("components") or [])
            if isinstance(component.get("component"), dict):
                walk([component["component"]])

    walk(modal.get("components") or [])
    return found


def describe(modal: dict[str, Any]) -> str:
    """One line per field, with its prefilled value: what ``/fill`` answers."""
    lines = [f"(a form opened: {modal.get('title', '')})"]
    for field in fields(modal):
        value = field.get("value")
        shown = f' [now: "{value}"]' if value else ""
        needed = "" if field.get("required", True) is False else " (required)"
        lines.append(f"  {field.get('label', field['custom_id'])}{needed}{shown}")
    lines.append("  Fill it with /fill LABEL:value … (unnamed fields keep their value)")
    return "\n".join(lines)


def values(modal: dict[str, Any], words: list[str]) -> dict[str, str]:
    """The submitted values by custom_id: named fields from ``words``, others as prefilled."""
    line = split_words(["fill", *words])
    if len(line.path) > 1:
        raise CommandLineError("Usage: /fill LABEL:value … (quote values with spaces)")
    by_label = {str(f.get("label", f["custom_id"])).casefold(): f for f in fields(modal)}
    submitted = {f["custom_id"]: str(f.get("value") or "") for f in fields(modal)}
    for label, value in line.options.items():
        field = by_label.get(label.casefold())
        if field is None:
            known = ", ".join(str(f.get("label")) for f in fields(modal))
            raise CommandLineError(f"The form has no field `{label}` (fields: {known}).")
        submitted[field["custom_id"]] = value
    return {key: value for key, value in submitted.items() if value}

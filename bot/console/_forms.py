"""Forms (Discord modals) in the console: show the fields a command opened, fill them in.

A modal has no line to type on, so the console prints its fields with what they hold and
``/submit FIELD:value …`` sends it. A field left out keeps what it shows (as Discord sends a
prefilled field the user did not touch); ``\\n`` in a value starts a new line, since forms
take one entry per line.
"""

from __future__ import annotations

from typing import Any

from bot.i18n import N_, _

SUBMIT_HELP = N_(
    '  /submit [FIELD:value …]  send the form last opened to you; e.g. /submit skills0:"Potions '
    '3 Wits\\nCharms 2 Wits" (\\n starts a new line; a field left out keeps what it shows)'
)


class FormError(Exception):
    """A /submit the form cannot take; the message says why."""


def inputs(modal: dict[str, Any]) -> list[dict[str, Any]]:
    """The modal's text inputs in order (inside action rows or labels)."""
    found = []
    for row in modal.get("components") or []:
        children = row.get("components") or ([row["component"]] if row.get("component") else [])
        found += [child for child in children if child.get("custom_id")]
    return found


def describe(modal: dict[str, Any]) -> str:
    """The form as text: its title, then each field's id, label and current text."""
    lines = [_("(a form opened: {title})", title=modal.get("title", ""))]
    for item in inputs(modal):
        lines.append(f"  {item['custom_id']} — {item.get('label', '')}:")
        value = item.get("value") or ""
        lines += [f"    {line}" for line in value.splitlines()] or ["    " + _("(empty)")]
    lines.append(_("Fill it in with /submit FIELD:value … (see /help console)."))
    return "\n".join(lines)


def values(modal: dict[str, Any], raw: dict[str, str]) -> dict[str, str]:
    """What to submit: the typed fields (``\\n`` read as a line break), the rest unchanged.

    A field is named by its id or, case-insensitively, by its label (``difficulty`` for a
    macro's prompt whose id is ``placeholder:difficulty``).
    """
    fields = {item["custom_id"]: item for item in inputs(modal)}
    by_label = {str(item.get("label", "")).casefold(): key for key, item in fields.items()}
    submitted = {key: item.get("value") or "" for key, item in fields.items()}
    for name, value in raw.items():
        key = name if name in fields else by_label.get(name.casefold())
        if key is None:
            raise FormError(
                _(
                    "The form has no field `{name}` (fields: {fields}).",
                    name=name,
                    fields=", ".join(fields),
                )
            )
        submitted[key] = value.replace("\\n", "\n")
    return submitted


def parse_words(words: list[str]) -> dict[str, str]:
    """``FIELD:value`` words (already split like a shell line) as a dict."""
    raw: dict[str, str] = {}
    for word in words:
        name, sep, value = word.partition(":")
        if not sep or not name:
            raise FormError(_("`{word}` is not FIELD:value. Quote values with spaces.", word=word))
        raw[name] = value
    return raw

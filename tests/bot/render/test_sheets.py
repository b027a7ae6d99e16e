"""Sheet embeds: a full sheet is paged so that every entry is shown, each page within limits."""

from __future__ import annotations

from bot.i18n import use_language
from bot.render.limits import FIELD_VALUE, FIELDS, TOTAL
from bot.render.sheets import sheet_pages
from bot.services.sheets import (
    MAX_ATTRIBUTES,
    MAX_RESOURCES,
    MAX_SKILLS,
    MAX_SPECIALTIES,
    NAME_LENGTH,
    NOTES_LENGTH,
    CharacterSheet,
    Resource,
    SheetText,
    Skill,
)


def _name(prefix: str, index: int) -> str:
    return f"{prefix}{index:03d}".ljust(NAME_LENGTH, "x")


def full_sheet() -> CharacterSheet:
    attributes = {_name("A", i): 1000 for i in range(MAX_ATTRIBUTES)}
    first = next(iter(attributes))
    specialties = tuple(_name("S", i) for i in range(MAX_SPECIALTIES))
    return CharacterSheet(
        id=1,
        guild_id=1,
        owner_id=2,
        name="N" * NAME_LENGTH,
        system="coda",
        attributes=attributes,
        skills={_name("K", i): Skill(-100, first, specialties) for i in range(MAX_SKILLS)},
        resources={_name("R", i): Resource(1000, 1000) for i in range(MAX_RESOURCES)},
        notes="n" * NOTES_LENGTH,
    )


def test_a_small_sheet_is_one_page() -> None:
    sheet = CharacterSheet(1, 1, 2, "Hermione", "coda", {"Wits": 3}, {"Stealth": Skill(2, "Wits")})
    [page] = sheet_pages(SheetText.of(sheet), changed="Wits = 3")
    assert page.title == "Hermione — Wits = 3"
    assert [f.name for f in page.fields] == ["Attributes (1)", "Skills (1)", "Resources (0)"]
    assert page.fields[1].value == "Stealth **2** (Wits)"
    assert page.footer.text is None


def test_a_full_sheet_shows_every_entry_within_discords_limits() -> None:
    sheet = full_sheet()
    pages = sheet_pages(SheetText.of(sheet))
    assert len(pages) > 1
    text = ""
    for number, page in enumerate(pages, start=1):
        assert len(page) <= TOTAL and len(page.fields) <= FIELDS
        assert all(len(f.value) <= FIELD_VALUE for f in page.fields)
        assert page.footer.text == f"Page {number}/{len(pages)}"  # nothing was shortened
        text += "\n".join(f.value for f in page.fields)
    for name in [*sheet.attributes, *sheet.skills, *sheet.resources]:
        assert f"{name} **" in text
    assert sheet.notes in text


def test_a_full_sheet_fits_in_spanish_too() -> None:
    """Spanish names its sections and pages at more length: still every entry, no cut."""
    sheet = full_sheet()
    with use_language("es"):
        pages = sheet_pages(
            SheetText.of(sheet), changed="editada de una vez — atributos: 64, recursos: 16"
        )
    text = ""
    for number, page in enumerate(pages, start=1):
        assert len(page) <= TOTAL and len(page.fields) <= FIELDS
        assert all(len(f.value) <= FIELD_VALUE for f in page.fields)
        assert page.footer.text == f"Página {number}/{len(pages)}"  # nothing was shortened
        assert "lo juega" in page.description
        text += "\n".join(f.value for f in page.fields)
    assert pages[0].fields[0].name.startswith("Atributos (")
    for name in [*sheet.attributes, *sheet.skills, *sheet.resources]:
        assert f"{name} **" in text

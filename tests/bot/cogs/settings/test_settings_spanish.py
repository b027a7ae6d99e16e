"""``/settings`` and the shared UI (pages, refusals, limits) for a Spanish-speaking table."""

from __future__ import annotations

from typing import Any

from bot.gateway import Rate, RateLimiter
from tests.conftest import Table, embed_of, text_of


async def test_show_in_spanish(table: Table, as_spanish: Any) -> None:
    as_spanish(table.alice)
    result = await table.alice.slash(table.channel, "settings show")
    assert result.ephemeral
    embed = embed_of(result)
    assert embed.title == "Configuración del canal"
    fields = {field.name: field.value for field in embed.fields}
    assert fields["Sistema por defecto"] == "sin fijar (`/settings system`)"
    assert fields["Tiradas secretas"] == "`gm` — quien tira y el DJ ven las tiradas secretas"
    assert (
        "ninguno (las tiradas secretas van a los DJ por mensaje directo)" in fields["Canal del DJ"]
    )
    assert "`coda.ones` = **off** — Unos en CODA" in fields["Reglas opcionales"]
    assert fields["Idioma"] == (
        "Este canal: el idioma de Discord de cada usuario (`/settings language`) · "
        "tú: sin elegir (`/settings my-language`)"
    )


async def test_a_spanish_gm_changes_every_setting(table: Table, as_spanish: Any) -> None:
    as_spanish(table.gm)
    gm_room = table.guild.create_text_channel("gm-room")
    system = await table.gm.slash(table.channel, "settings system", name="coda")
    assert embed_of(system).title == (
        "Configuración del canal — sistema fijado: CODA (juego de rol de Harry Potter)"
    )
    rule = await table.gm.slash(table.channel, "settings rule", name="coda.ones", value="fumble")
    assert embed_of(rule).title == "Configuración del canal — coda.ones = fumble"
    secret = await table.gm.slash(table.channel, "settings secret", mode="open")
    assert embed_of(secret).title == "Configuración del canal — tiradas secretas: open"
    channel = await table.gm.slash(table.channel, "settings gm-channel", channel=gm_room)
    assert embed_of(channel).title.endswith("las tiradas secretas van a #gm-room")
    cleared = await table.gm.slash(table.channel, "settings gm-channel")
    assert embed_of(cleared).title.endswith("las tiradas secretas van a los DJ por mensaje directo")
    role = table.guild.create_role("Narradores")
    added = await table.gm.slash(table.channel, "settings gm-role", role=role)
    assert embed_of(added).title == "Roles de DJ"
    assert f"<@&{role.id}> hace DJ aquí a partir de ahora." in embed_of(added).description
    again = await table.gm.slash(table.channel, "settings gm-role", role=role)
    assert "ya hacía DJ aquí" in embed_of(again).description
    removed = await table.gm.slash(table.channel, "settings gm-role", role=role, remove=True)
    assert "ya no hace DJ aquí" in embed_of(removed).description
    # An English player reads the same settings in English.
    text = text_of(await table.alice.slash(table.channel, "settings show"))
    assert "CODA (Harry Potter RPG)" in text and "Default system" in text


async def test_refusals_in_spanish(table: Table, as_spanish: Any) -> None:
    as_spanish(table.alice)
    refused = await table.alice.slash(table.channel, "settings system", name="coda")
    assert refused.ephemeral
    assert text_of(refused) == (
        "Solo el DJ del canal puede fijar el sistema por defecto del canal "
        "(quién lo es: `/help command:gm`)."
    )
    rule = await table.alice.slash(table.channel, "settings rule", name="coda.ones", value="off")
    assert text_of(rule).startswith("Solo el DJ del canal puede cambiar las reglas del canal")
    as_spanish(table.gm)
    wrong = await table.gm.slash(table.channel, "settings rule", name="coda.ones", value="x")
    assert text_of(wrong) == "`coda.ones` admite uno de: off, fumble, failure, complete-failure."
    role = table.guild.create_role("Players")
    not_allowed = await table.alice.slash(table.channel, "settings gm-role", role=role)
    assert text_of(not_allowed).startswith(
        "Solo un DJ o alguien con Gestionar servidor puede cambiar los roles de DJ"
    )


async def test_a_secret_roll_refused_by_the_channel_in_spanish(
    table: Table, as_spanish: Any
) -> None:
    await table.gm.slash(table.channel, "settings secret", mode="off")
    as_spanish(table.alice)
    refused = await table.alice.slash(table.channel, "roll", expression="1d6", secret=True)
    assert text_of(refused) == (
        "Las tiradas secretas están desactivadas en este canal "
        "(un DJ puede cambiarlo con /settings secret)."
    )


async def test_pages_turn_with_spanish_buttons(table: Table, as_spanish: Any) -> None:
    for _ in range(12):
        await table.bob.slash(table.channel, "roll", expression="1d6")
    as_spanish(table.alice)
    first = await table.alice.slash(table.channel, "history", count=12)
    assert "1/2" in str(first.response.embeds[0].footer.text)
    labels = [b["label"] for row in first.response.components for b in row["components"]]
    assert labels == ["◀ Anterior", "Siguiente ▶"]
    turned = await table.alice.click(first.response, label="Siguiente ▶")
    assert "2/2" in str(turned.response.embeds[0].footer.text)


async def test_the_rate_limit_refusal_in_spanish(table: Table, as_spanish: Any) -> None:
    table.bot.rate_limiter = RateLimiter(Rate(1, 0.001), Rate(0, 0))
    as_spanish(table.alice)
    await table.alice.slash(table.channel, "settings show")
    refused = await table.alice.slash(table.channel, "settings show")
    assert text_of(refused).startswith("Más despacio: vuelve a intentarlo en ")


async def test_a_refused_form_is_answered_in_spanish_with_a_fix_it_button(
    table: Table, as_spanish: Any
) -> None:
    await table.alice.slash(table.channel, "sheet create", name="Hermione", system="coda")
    as_spanish(table.alice)
    shown = await table.alice.slash(table.channel, "sheet edit", part="skills")
    refused = await table.alice.submit_modal(shown, {"skills0": "Charms 2 Wist Wand work"})
    assert refused.ephemeral
    assert refused.response.content.startswith("No se guardó nada. ")
    labels = [b["label"] for row in refused.response.components for b in row["components"]]
    assert labels == ["Corregir"]
    reopened = await table.alice.click(refused.response, label="Corregir")
    assert reopened.modal is not None

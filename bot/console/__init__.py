"""The offline console (``narrator console``): the bot's own slash commands typed in a
terminal, run by the real bot inside SimCord's in-memory Discord.

Its modules: the loop that reads lines and prints replies (``_run``), the session that runs
one line (``_console``), the simulated guild with its stable ids (``_world``), the payload
each message becomes (``_payloads``), its text form and line editor (``_text``), forms
(``_forms``) and the client locale (``_locale``).
"""

from bot.console._console import Console as Console
from bot.console._locale import LocaleError as LocaleError
from bot.console._locale import parse_locale as parse_locale
from bot.console._run import configure_console_logging as configure_console_logging
from bot.console._run import in_simcord as in_simcord
from bot.console._run import run_console as run_console
from bot.console._world import GUILD_ID as GUILD_ID
from bot.console._world import stable_id as stable_id

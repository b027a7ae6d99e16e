"""Initiative embeds and lines: the tracker, the line each change posts, and the
end-of-encounter summary.

Hidden combatants appear only in the GM's ephemeral views; the public tracker and public
lines never name them. This face is the package's API; its modules are private, one job each:

- :mod:`bot.render.initiative._tracker`: the tracker embed, whose turn it is, the
  condition list;
- :mod:`bot.render.initiative._heads`: the head line of a change to one combatant;
- :mod:`bot.render.initiative._reply`: the public and GM lines of every change;
- :mod:`bot.render.initiative._summary`: ``/init end``'s question and summary.
"""

from __future__ import annotations

from bot.render.initiative._reply import Reply as Reply
from bot.render.initiative._reply import reply as reply
from bot.render.initiative._reply import roll_detail as roll_detail
from bot.render.initiative._summary import confirm_end_embed as confirm_end_embed
from bot.render.initiative._summary import summary_embed as summary_embed
from bot.render.initiative._tracker import conditions_text as conditions_text
from bot.render.initiative._tracker import now_text as now_text
from bot.render.initiative._tracker import tracker_embed as tracker_embed

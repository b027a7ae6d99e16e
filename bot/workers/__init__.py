"""Worker processes for CPU-heavy work (exact odds past a cost estimate, charts): off the
event loop *and* off its interpreter, so the GIL never makes a player's ``/roll`` wait for
another's ``/odds``.

A small pool of fresh interpreters (``WORKER_PROCESSES``, docs/hosting.md), started when a
job first needs one and ended with the bot; per-user and per-channel queues that refuse at
once when full (:class:`Busy`); a budget per job that really stops it, by killing its worker
(:class:`OverBudget`). Jobs are module-level functions and plain values, pickled over a pipe.
Heavy work that stays in this process (an aggregate query) passes a :class:`FairGate`: the
same admission, a few slots; an aggregate on an SQLite file runs in a worker
(:func:`read_sqlite`). See docs/decisions/worker-processes.md.
"""

from bot.workers._gate import FairGate as FairGate
from bot.workers._holders import Busy as Busy
from bot.workers._pool import MAX_WAITING as MAX_WAITING
from bot.workers._pool import PER_CHANNEL as PER_CHANNEL
from bot.workers._pool import PER_USER as PER_USER
from bot.workers._pool import OverBudget as OverBudget
from bot.workers._pool import WorkerPool as WorkerPool
from bot.workers._pool import default_size as default_size
from bot.workers._process import WorkerDied as WorkerDied
from bot.workers._shared import configure as configure
from bot.workers._shared import install as install
from bot.workers._shared import run as run
from bot.workers._shared import shared as shared
from bot.workers._shared import shutdown as shutdown
from bot.workers._sqlite import read_sqlite as read_sqlite

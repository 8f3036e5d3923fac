"""``python -m attention_core``: run the attention core from a shell."""

from attention_core.cli import main

raise SystemExit(main())

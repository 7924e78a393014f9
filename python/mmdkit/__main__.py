"""python3 -m mmdkit dataset ... (see mmdkit.cli)."""
import sys

from .cli import main

sys.exit(main())

"""``python -m sim.cli``: the ``fray`` command without installing it (e.g. from a checkout)."""

from sim.cli.main import main

if __name__ == "__main__":
    main()

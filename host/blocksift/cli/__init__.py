"""The ``blocksift`` command line: one module per subcommand (``cmd_<name>.py``).

Each command module exposes ``add_parser(subparsers)`` and ``run(args) -> int``;
:mod:`blocksift.cli.main` lists them and imports only the one being run.
"""

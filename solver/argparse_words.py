"""argparse's own words, marked for the catalogs: ``clue-notebook`` speaks them through
`solver.cli` (argparse asks its module's ``_`` and ``ngettext`` for them at the moment it
prints). They are argparse's message ids, ``%``-formatted: a translation keeps every
``%(name)s`` and ``%s`` as it is."""

from .i18n import N_

WORDS = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("%(prog)s: error: %(message)s\n"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("the following arguments are required: %s"),
    N_("unrecognized arguments: %s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("invalid %(type)s value: %(value)r"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("one of the arguments %s is required"),
    N_("not allowed with argument %s"),
)
"""The messages a user of ``clue-notebook`` can meet (help headings and usage errors)."""

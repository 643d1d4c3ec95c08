"""``python -m ragspine`` runs the command line."""

from ragspine.cli import app

app()

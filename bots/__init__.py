"""Bots: the Bot protocol and every bot, named by spec strings."""

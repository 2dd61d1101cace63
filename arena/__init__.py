"""The arena: referee, tournaments, ratings, records and the ``kleos`` command."""

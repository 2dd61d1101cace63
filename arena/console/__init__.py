"""The terminal console of `kleos play`: game views (``view``), the screen (``screen``), difficulty levels
(``levels``) and the play session (``session``: seats, recording, resume, the end of a game)."""

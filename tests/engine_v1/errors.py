"""The engine's exceptions: both are ``ValueError`` so callers can treat them as bad input."""


class RulesError(ValueError):
    """Impossible settings, naming the setting and the allowed values."""


class IllegalActionError(ValueError):
    """An action that is not legal in the current state, saying why.  The state is untouched."""


class NotationError(ValueError):
    """Text that is not valid move notation."""

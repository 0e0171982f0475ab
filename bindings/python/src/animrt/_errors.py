"""One exception class per animrt status, each carrying the library's message."""
from __future__ import annotations


class AnimrtError(Exception):
    """Base class: `status` is the animrt_status code, `message` the detail."""

    status: int = -1
    name: str = "ANIMRT_E_UNKNOWN"

    def __init__(self, message: str, status: int | None = None):
        super().__init__(message)
        self.message = message
        if status is not None:
            self.status = status


class NullPointerError(AnimrtError, ValueError):
    status, name = 1, "ANIMRT_E_NULL"


class InvalidArgumentError(AnimrtError, ValueError):
    status, name = 2, "ANIMRT_E_INVALID"


class RangeError(AnimrtError, ValueError):
    status, name = 3, "ANIMRT_E_RANGE"


class HandleError(AnimrtError, LookupError):
    status, name = 4, "ANIMRT_E_HANDLE"


class NotFoundError(AnimrtError, LookupError):
    status, name = 5, "ANIMRT_E_NOT_FOUND"


class KindError(AnimrtError, TypeError):
    status, name = 6, "ANIMRT_E_KIND"


class BufferTooSmallError(AnimrtError):
    status, name = 7, "ANIMRT_E_BUFFER"


class StateError(AnimrtError):
    status, name = 8, "ANIMRT_E_STATE"


class ExistsError(AnimrtError):
    status, name = 9, "ANIMRT_E_EXISTS"


class OutOfMemoryError(AnimrtError, MemoryError):
    status, name = 10, "ANIMRT_E_NOMEM"


class TimeError(AnimrtError, ValueError):
    status, name = 11, "ANIMRT_E_TIME"


class EnumError(AnimrtError, ValueError):
    status, name = 12, "ANIMRT_E_ENUM"


class ClosedError(AnimrtError):
    """The runtime (or object) was closed; no call reached the library."""
    name = "closed"


BY_STATUS = {cls.status: cls for cls in (
    NullPointerError, InvalidArgumentError, RangeError, HandleError, NotFoundError, KindError,
    BufferTooSmallError, StateError, ExistsError, OutOfMemoryError, TimeError, EnumError)}


def error_for(status: int, message: str) -> AnimrtError:
    return BY_STATUS.get(status, AnimrtError)(message, status)

r"""Dates and times of day as a text writes them: `2019-03-04`, "17 June 2003", "June 17, 2003", "June 2003",
"2002", `17:30`, "5:30 pm".

A date is written to a precision (a day, a month, a year), so it stands for every instant of that day,
month or year: "June 2003" is not 1 June. `read_dates` gives each date and time of day a text writes, with
its precision, so a check can use it as a value (differences are durations, dates compare) and can refuse
one the text does not write. An ISO date (`2019-03-04`) is one date, never three numerals: the numeral
reader skips it (`ISO_DATE`), so "version 2.1 (2019-03-04)" reports 2.1 and a date.
"""

from __future__ import annotations

import calendar
import re
from typing import Final

import attrs

MONTHS: Final = {
    name.casefold(): number
    for number in range(1, 13)
    for name in (calendar.month_name[number], calendar.month_abbr[number], calendar.month_abbr[number] + ".")
}
"""English month names and their abbreviations (with or without a full stop), case-folded, to 1-12."""
MONTHS["sept"] = MONTHS["sept."] = 9

ISO_DATE: Final = re.compile(r"(?<![0-9.\-])([12][0-9]{3})-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])(?![0-9\-])")
"""An ISO date, `2019-03-04`: the numeral reader reads no numeral inside one. (`2010-12` is not read as a
month: it is as often a range of years.)"""

_MONTH = r"(?P<{0}>(?:" + "|".join(sorted((re.escape(name) for name in MONTHS), key=len, reverse=True)) + r"))"
_DAY_MONTH_YEAR = re.compile(
    r"(?<![\w])(?P<day>[0-9]{1,2})(?:st|nd|rd|th)?\s+"
    + _MONTH.format("month")
    + r",?\s+(?P<year>[12][0-9]{3})(?![0-9])",
    re.IGNORECASE,
)
_MONTH_DAY_YEAR = re.compile(
    r"(?<![\w])"
    + _MONTH.format("month")
    + r"\s+(?P<day>[0-9]{1,2})(?:st|nd|rd|th)?,?\s+(?P<year>[12][0-9]{3})(?![0-9])",
    re.IGNORECASE,
)
_MONTH_YEAR = re.compile(r"(?<![\w])" + _MONTH.format("month") + r",?\s+(?P<year>[12][0-9]{3})(?![0-9])", re.IGNORECASE)
_YEAR = re.compile(r"(?<![\w.,\-])([12][0-9]{3})(?![\w.,]?[0-9])")
_CLOCK = re.compile(
    r"(?<![\w:.])(?P<hour>[0-9]{1,2}):(?P<minute>[0-5][0-9])(?::(?P<second>[0-5][0-9]))?"
    r"(?:\s*(?P<half>[ap]\.?m\.?)(?![A-Za-z]))?(?![0-9:])",
    re.IGNORECASE,
)


@attrs.frozen
class WrittenDate:
    """A date as written: the year, and the month and day when the text gives them (None: not written)."""

    year: int
    month: int | None = None
    day: int | None = None

    @property
    def text(self) -> str:
        """The date in ISO form to its precision: `2003-06-17`, `2003-06`, `2003`."""
        parts = [f"{self.year:04d}"] + [f"{part:02d}" for part in (self.month, self.day) if part is not None]
        return "-".join(parts)


@attrs.frozen
class WrittenTime:
    """A time of day as written: hours (0-23), minutes and, when written, seconds."""

    hour: int
    minute: int
    second: int | None = None

    @property
    def text(self) -> str:
        return f"{self.hour:02d}:{self.minute:02d}" + (f":{self.second:02d}" if self.second is not None else "")


def valid_date(year: int, month: int | None, day: int | None) -> bool:
    """Whether the parts name a day, month or year of the calendar (no 31 June, 29 February only in leap years)."""
    if not 1 <= year <= 9999 or (month is None and day is not None):
        return False
    if month is None:
        return True
    if not 1 <= month <= 12:
        return False
    return day is None or 1 <= day <= calendar.monthrange(year, month)[1]


def read_dates(text: str) -> tuple[WrittenDate, ...]:
    """Every date the text writes, at the precision it writes it; a bare four-digit year from 1000 to 2999
    is a year (it is also a numeral)."""
    found: list[tuple[int, WrittenDate]] = []
    taken: list[tuple[int, int]] = []
    for match in ISO_DATE.finditer(text):
        month, day = int(match[2]), int(match[3])
        if valid_date(int(match[1]), month, day):
            found.append((match.start(), WrittenDate(int(match[1]), month, day)))
            taken.append(match.span())
    for pattern in (_DAY_MONTH_YEAR, _MONTH_DAY_YEAR, _MONTH_YEAR):
        for match in pattern.finditer(text):
            if any(start <= match.start() < end for start, end in taken):
                continue
            year, month = int(match["year"]), MONTHS[match["month"].casefold()]
            written_day = int(match["day"]) if "day" in match.groupdict() else None
            if valid_date(year, month, written_day):
                found.append((match.start(), WrittenDate(year, month, written_day)))
                taken.append(match.span())
    for match in _YEAR.finditer(text):
        if not any(start <= match.start() < end for start, end in taken):
            found.append((match.start(), WrittenDate(int(match[1]))))
    found.sort(key=lambda item: item[0])
    return tuple(dict.fromkeys(date for _, date in found))


def read_times(text: str) -> tuple[WrittenTime, ...]:
    """Every time of day the text writes (`17:30`, `17:30:15`, `5:30 pm`), as a 24-hour time."""
    found: list[WrittenTime] = []
    for match in _CLOCK.finditer(text):
        hour = int(match["hour"])
        half = (match["half"] or "").casefold().replace(".", "")
        if half:
            if not 1 <= hour <= 12:
                continue
            hour = hour % 12 + (12 if half == "pm" else 0)
        if hour > 23:
            continue
        second = int(match["second"]) if match["second"] else None
        found.append(WrittenTime(hour, int(match["minute"]), second))
    return tuple(dict.fromkeys(found))

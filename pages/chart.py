"""The movements chart: bars of documents per month and direction, laid out for an SVG template.

Geometry is worked out here in plain numbers so that the template only draws,
and the chart needs no script in the browser.
"""
from datetime import date

WIDTH, HEIGHT = 760, 280
LEFT, RIGHT, TOP, BOTTOM = 48, 12, 16, 40
DIRECTIONS = (("I", "goods-in"), ("O", "goods-out"))
MONTHS = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split()


def months_between(first: date, last: date) -> list[tuple[int, int]]:
    months, (year, month) = [], (first.year, first.month)
    while (year, month) <= (last.year, last.month):
        months.append((year, month))
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    return months


def months_back(day: date, months: int) -> date:
    """The first day of the month `months` before day's month."""
    index = day.year * 12 + day.month - 1 - months
    return date(index // 12, index % 12 + 1, 1)


def nice_top(value: int) -> int:
    """The smallest 1, 2 or 5 times a power of ten that is at least value (and at least 1)."""
    step = 1
    while True:
        for factor in (1, 2, 5):
            if factor * step >= value:
                return factor * step
        step *= 10


def monthly_chart(rows: list[dict], first: date, last: date) -> dict:
    """Bars, axis ticks and month labels for the rows of reports.overview_monthly_movement."""
    counts = {(row["year"], row["month"], row["direction"]): row["count"] for row in rows}
    months = months_between(first, last)
    top = nice_top(max(counts.values(), default=0))
    plot_width, plot_height = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    slot = plot_width / len(months)
    bar = slot * 0.36
    bars, labels = [], []
    for index, (year, month) in enumerate(months):
        x = LEFT + index * slot
        labels.append({"x": round(x + slot / 2, 1), "text": MONTHS[month - 1],
                       "year": str(year) if month == 1 or index == 0 else ""})
        for side, (direction, name) in enumerate(DIRECTIONS):
            count = counts.get((year, month, direction), 0)
            height = plot_height * count / top
            bars.append({"x": round(x + slot * 0.12 + side * bar, 1), "y": round(TOP + plot_height - height, 1),
                         "width": round(bar, 1), "height": round(height, 1), "direction": direction,
                         "name": name, "count": count, "month": f"{year}-{month:02d}",
                         "title": f"{MONTHS[month - 1]} {year}, {name}: {count}"})
    ticks = [{"y": round(TOP + plot_height - plot_height * i / 4, 1), "value": top * i // 4}
             for i in range(5) if top * i % 4 == 0]
    return {"width": WIDTH, "height": HEIGHT, "left": LEFT, "right": WIDTH - RIGHT,
            "bottom": TOP + plot_height, "bars": bars, "labels": labels, "ticks": ticks}


def stock_chart(rows: list[dict], unit: str) -> dict:
    """Bars of a product's stock at each month's end (stock_card.month_end_stock's rows).

    Stock may be negative where the depot allows it: the zero line then sits above
    the bottom and those bars hang below it.
    """
    values = [row["amount_milli"] for row in rows]
    top = nice_top(-(-max(max(values, default=0), 0) // 1000)) * 1000
    low = -nice_top(-(min(min(values, default=0), 0) // 1000)) * 1000 if min(values, default=0) < 0 else 0
    span = top - low
    plot_width, plot_height = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    zero = TOP + plot_height * top / span
    slot = plot_width / max(len(rows), 1)
    bars, labels = [], []
    for index, row in enumerate(rows):
        x = LEFT + index * slot
        height = plot_height * abs(row["amount_milli"]) / span
        name = f"{MONTHS[row['month'] - 1]} {row['year']}"
        amount = row["amount_milli"] / 1000
        shown = f"{amount:g}" if row["amount_milli"] % 1000 == 0 else f"{amount:.3f}".rstrip("0")
        labels.append({"x": round(x + slot / 2, 1), "text": MONTHS[row["month"] - 1],
                       "year": str(row["year"]) if row["month"] == 1 or index == 0 else ""})
        bars.append({"x": round(x + slot * 0.2, 1), "width": round(slot * 0.6, 1),
                     "y": round(zero - height if row["amount_milli"] >= 0 else zero, 1),
                     "height": round(height, 1), "amount": shown, "month": f"{row['year']}-{row['month']:02d}",
                     "negative": row["amount_milli"] < 0, "title": f"{name}: {shown} {unit}"})
    ticks = [{"y": round(TOP + plot_height * (top - value) / span, 1), "value": f"{value / 1000:g}"}
             for value in sorted({low, 0, top // 2, top})]
    return {"width": WIDTH, "height": HEIGHT, "left": LEFT, "right": WIDTH - RIGHT, "zero": round(zero, 1),
            "bottom": TOP + plot_height, "bars": bars, "labels": labels, "ticks": ticks}

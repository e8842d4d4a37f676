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

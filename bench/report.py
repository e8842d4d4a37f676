"""Rows of the result table and how they are judged and printed."""
from dataclasses import dataclass


@dataclass
class Row:
    what: str
    unit: str
    service: float | None        # None: not measured (the scenario failed or was skipped)
    baseline: float | None
    goal: float
    floor: float
    higher_is_better: bool
    own_goal: bool = False       # goal and floor chosen by the bench, not given in the brief
    judge_value: bool = False    # judged on the service figure itself (a count of errors, a time)
    error: str = ""

    @property
    def ratio(self):
        if self.judge_value:
            return self.service
        if self.service is None or not self.baseline:
            return None
        return self.service / self.baseline

    @property
    def result(self):
        if self.error == "skipped":
            return "SKIP"
        r = self.ratio
        if r is None:
            return "FAIL"
        if self.higher_is_better:
            return "PASS" if r >= self.goal else "WARN" if r >= self.floor else "FAIL"
        return "PASS" if r <= self.goal else "WARN" if r <= self.floor else "FAIL"


def failed_row(what, error):
    return Row(what, "", None, None, 0, 0, True, error=error)


def _num(v):
    if v is None:
        return "n/a"
    if v >= 100 or float(v).is_integer():
        return f"{v:,.0f}"
    return f"{v:.2f}" if v >= 1 else f"{v:.3f}"


def _bound(row, v):
    sign = ">=" if row.higher_is_better else "<="
    if row.judge_value and row.goal == row.floor == 0:  # a count that must be nil
        sign = "="
    return f"{sign} {v:g}{'*' if row.own_goal else ''}"


def format_table(rows):
    header = ("what", "service", "baseline", "ratio", "goal", "floor", "result")
    lines = []
    for row in rows:
        unit = f" {row.unit}" if row.unit else ""
        ratio = row.ratio
        lines.append((
            row.what,
            _num(row.service) + (unit if row.service is not None else ""),
            _num(row.baseline) + (unit if row.baseline is not None else ""),
            "-" if row.judge_value else "n/a" if ratio is None else f"{ratio:.2f}x",
            _bound(row, row.goal) if row.what and row.unit else "",
            _bound(row, row.floor) if row.what and row.unit else "",
            row.result,
        ))
    widths = [max(len(r[i]) for r in [header, *lines]) for i in range(len(header))]

    def fmt(cells):
        first = cells[0].ljust(widths[0])
        rest = [c.rjust(w) for c, w in zip(cells[1:-1], widths[1:-1])]
        return " | ".join([first, *rest, cells[-1].ljust(widths[-1])])

    sep = "-+-".join("-" * w for w in widths)
    return "\n".join([fmt(header), sep, *(fmt(cells) for cells in lines)])

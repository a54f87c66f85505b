# The best achievable dispatch day, offline and clairvoyant (issue 42's method, CP-SAT): every order on site by its
# deadline or not served, on a technician of a match within its NTE, busy from departure to the end of the work,
# arriving in working hours, within jobs_per_day per local day. Run by hand (usage below); why and the figures:
# docs/decisions.md, "The best achievable day, under each bound".
"""Usage:
  DISPATCH_DAY_OPTIMUM_INPUT=/tmp/day.json npm run bench -- --only dispatch-day
  pip install ortools==9.15.6755
  python3 bench/dispatch-day/optimum.py /tmp/day.json --floor response [--drive geo] [--work planned]

--floor: an arrival no sooner than the drive (issue 42's reading), the drive and the contractor's response for the
urgency (`response`), or the response alone (`ours`: our ETA's bound; the drive only sets when the technician is busy
from). --drive / --work: the field's own (what happens) or our plan's estimates (geographic drive, billed hours).
"""
import argparse
import bisect
import json
import time
from collections import defaultdict

from ortools.sat.python import cp_model

parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
parser.add_argument("input")
parser.add_argument("--floor", choices=["drive", "response", "ours"], default="drive")
parser.add_argument("--drive", choices=["field", "geo"], default="field")
parser.add_argument("--work", choices=["field", "planned"], default="field")
parser.add_argument("--seconds", type=float, default=60, help="time limit per connected component")
parser.add_argument("--workers", type=int, default=2)
parser.add_argument("--served", help="write each served order's contractor and arrival here (json)")
args = parser.parse_args()

data = json.load(open(args.input))
orders = {o["index"]: o for o in data["orders"]}
contractors = {c["id"]: c for c in data["contractors"]}
day_starts = {c["id"]: [start for start, _ in c["dayStarts"]] for c in data["contractors"]}


def candidates():
    """(order, contractor, earliest, latest arrival, local day of departure, drive): one per working interval and day."""
    for o in orders.values():
        for m in o["matches"]:
            c, starts = contractors[m["c"]], day_starts[m["c"]]
            drive = m["geo"] if args.drive == "geo" else o["drive"]
            floor = {"drive": drive, "response": max(drive, m["response"]), "ours": m["response"]}[args.floor]
            lo, hi = o["at"] + floor, o["deadline"]
            for start, end in c["hours"]:
                x, last = max(lo, start), min(hi, end - 1)
                while x <= last:  # split where the local day of departure changes
                    i = bisect.bisect_right(starts, x - drive) - 1
                    y = min(last, starts[i + 1] + drive - 1) if i + 1 < len(starts) else last
                    yield (o["index"], c["id"], x, y, c["dayStarts"][i][1], drive)
                    x = y + 1


def components(cands):
    """The candidates grouped by connected orders and contractors: each group is solved on its own."""
    parent = {}

    def find(x):
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for order, contractor, *_ in cands:
        parent[find(("o", order))] = find(("c", contractor))
    groups = defaultdict(list)
    for cand in cands:
        groups[find(("o", cand[0]))].append(cand)
    return sorted(groups.values(), key=len, reverse=True)


def solve(group):
    model = cp_model.CpModel()
    per_order, per_contractor, per_day, chosen = defaultdict(list), defaultdict(list), defaultdict(list), []
    for j, (index, cid, lo, hi, day, drive) in enumerate(group):
        o = orders[index]
        work = o["plannedWork"] if args.work == "planned" else o["work"]
        present = model.NewBoolVar(f"p{j}")
        arrival = model.NewIntVar(lo, hi, f"a{j}")
        departure = model.NewIntVar(lo - drive, hi - drive, f"d{j}")
        model.Add(departure == arrival - drive)
        per_contractor[cid].append(model.NewOptionalFixedSizeIntervalVar(departure, drive + work, present, f"i{j}"))
        per_order[index].append(present)
        per_day[(cid, day)].append(present)
        chosen.append((present, arrival, index, cid))
    for options in per_order.values():
        model.AddAtMostOne(options)
    for cid, intervals in per_contractor.items():
        model.AddCumulative(intervals, [1] * len(intervals), contractors[cid]["k"])
    for (cid, _), taken in per_day.items():
        if len(taken) > contractors[cid]["perDay"]:
            model.Add(sum(taken) <= contractors[cid]["perDay"])
    model.Maximize(sum(sum(options) for options in per_order.values()))
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = args.seconds
    solver.parameters.num_workers = args.workers
    status = solver.Solve(model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return {}, len(per_order), False
    served = {index: {"c": cid, "arrival": solver.Value(a)} for present, a, index, cid in chosen if solver.Value(present)}
    return served, round(solver.BestObjectiveBound()), status == cp_model.OPTIMAL


started = time.time()
served, bound, optimal = {}, 0, True
for group in components(list(candidates())):
    got, group_bound, group_optimal = solve(group)
    served.update(got)
    bound += group_bound
    optimal = optimal and group_optimal

urgencies = ["emergency", "urgent", "routine", "scheduled"]
share = lambda n, d: f"{100 * n / d:.1f}" if d else "n/a"
counts = {u: sum(o["urgency"] == u for o in orders.values()) for u in urgencies}
shares = [share(sum(orders[i]["urgency"] == u for i in served), counts[u]) for u in urgencies]
print(
    f"floor {args.floor}, drive {args.drive}, work {args.work}: on site within deadline "
    f"{' / '.join(shares)} / {share(len(served), len(orders))} % ({len(served)} of {len(orders)}); "
    f"upper bound {bound} ({share(bound, len(orders))} %); {'optimal' if optimal else 'not proven optimal'}; "
    f"{time.time() - started:.0f} s"
)
if args.served:
    json.dump({str(k): v for k, v in served.items()}, open(args.served, "w"))

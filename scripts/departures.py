#!/usr/bin/env python3
"""How far the straight line from a parked spot falls short of the way driven, on real recordings.

    python3 scripts/departures.py [--bench ../shared/bench] [--data ../shared/data]

Every departure after a stop of 30 s or more (reported speed below 0.5 m/s, no gap over 5 s) in the drives without
truth (data/nmea_drives) and the SPAN references of the GSDC drives: the way driven 12 s and 32 s after the drive-off
(the integral of the receiver's speed; a window with a gap over 5 s is skipped) against the straight line from the
spot (the mean of the stop's last 10 positions) to the position then. 32 s is a 35-s boot with the car driven off
3 s after power-on. Prints each departure and, per window, the median ratio and that of all metres together.
"""
import argparse
import glob
import os
import sys


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bench", default=os.path.join(here, "..", "..", "shared", "bench"))
    parser.add_argument("--data", default=os.path.join(here, "..", "..", "shared", "data"))
    args = parser.parse_args()
    sys.path.insert(0, os.path.abspath(args.bench))
    import geo
    import nmea

    files = sorted(glob.glob(os.path.join(args.data, "nmea_drives", "*")))
    files += sorted(glob.glob(os.path.join(args.data, "gsdc_phone_vs_truth", "*SPAN*")))
    rows = []
    for path in files:
        fixes = [f for f in nmea.read_fixes(path) if f.valid and f.speed_mps is not None]
        i = 0
        while i < len(fixes) - 1:
            if fixes[i].speed_mps >= 0.5:
                i += 1
                continue
            j = i
            while j < len(fixes) - 1 and fixes[j + 1].speed_mps < 0.5 and fixes[j + 1].t - fixes[j].t < 5:
                j += 1
            if fixes[j].t - fixes[i].t >= 30 and j < len(fixes) - 1:
                last = fixes[max(i, j - 9):j + 1]
                lat = sum(f.lat for f in last) / len(last)
                lon = sum(f.lon for f in last) / len(last)
                for window in (12, 32):
                    driven, k, whole = 0.0, j, True
                    while k < len(fixes) - 1 and fixes[k + 1].t <= fixes[j].t + window:
                        step = fixes[k + 1].t - fixes[k].t
                        whole = whole and step <= 5
                        driven += (fixes[k].speed_mps + fixes[k + 1].speed_mps) / 2 * step
                        k += 1
                    if whole and driven > 20:
                        straight = geo.local_distance(lat, lon, fixes[k].lat, fixes[k].lon)
                        rows.append((os.path.basename(path), window, driven, straight))
            i = j + 1
    for window in (12, 32):
        chosen = [row for row in rows if row[1] == window]
        for name, _, driven, straight in chosen:
            print(f"  {window:2d} s  {name:48s} driven {driven:6.0f} m  straight {straight:6.0f} m  {straight / driven:.3f}")
        ratios = sorted(straight / driven for _, _, driven, straight in chosen)
        driven = sum(row[2] for row in chosen)
        straight = sum(row[3] for row in chosen)
        print(f"{window} s after the drive-off: {len(chosen)} departures, straight line / way driven: median "
              f"{ratios[len(ratios) // 2]:.3f}, all metres {straight / driven:.3f} ({driven:.0f} m driven, "
              f"{driven - straight:.0f} m cut)")


if __name__ == "__main__":
    main()

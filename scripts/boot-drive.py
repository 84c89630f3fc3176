#!/usr/bin/env python3
"""Two city trips with the board's power cut between them: the bench's drive for the metres before the first fix.

    scripts/boot-drive.py --seed N --boot-delay S [--drive-off S] [--parked-min M] [--bench DIR] --out DIR

A car drives a city trip and parks; 20 s later the ignition (and the board's power) goes off for --parked-min
minutes (30); it comes on again, the car drives off --drive-off seconds later (3) on a second city trip of about
5.4 km, and trackd hears the receiver only --boot-delay seconds after power-on (35 on a Pi booting Debian).
Writes DIR/boot_city-sN-dS.first.nmea (the receiver while the board ran for the first trip),
DIR/boot_city-sN-dS.second.nmea (from power-on + boot delay to the end) and DIR/boot_city-sN-dS.truth.json:
the second trip's true distance from its parking spot (what the log should show for it), the distance driven
before trackd heard the receiver, the straight line over that stretch, and the instants (seconds from the log's
start and UTC).

It uses the generator of the shared bench (route, receiver noise, NMEA writer: ../shared/bench, or --bench DIR):
the route is drawn from the seed's own stream (`boot_city/route/N`), the receiver noise from `boot_city/noise/N`,
so a seed gives the same drive at every boot delay. The receiver keeps running through the power cut (a u-blox
with its backup supply hot-starts within a second or two, well inside the boot delay).
"""

import argparse
import dataclasses
import json
import math
import os
import random
import sys


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--boot-delay", type=float, default=35.0,
                        help="seconds from power-on until trackd hears the receiver (35)")
    parser.add_argument("--drive-off", type=float, default=3.0,
                        help="seconds from power-on until the car moves (3)")
    parser.add_argument("--parked-min", type=float, default=30.0, help="minutes the power is off (30)")
    parser.add_argument("--bench", default=os.path.join(os.path.dirname(__file__), "..", "..", "shared", "bench"),
                        help="the shared bench's folder (../shared/bench)")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    sys.path.insert(0, os.path.abspath(args.bench))
    import geo
    from nmea import NmeaWriter
    from receiver import Receiver, ReceiverConfig
    from route import Route, TrackSampler, build_track
    from scenarios import BASE_DATE, ORIGIN, city_drive
    from datetime import timedelta

    rng = random.Random(f"boot_city/route/{args.seed}")
    route = Route(heading_deg=rng.uniform(0, 360))
    route.stop(rng.uniform(10, 30))
    city_drive(route, rng, rng.uniform(3000, 6000), red_lights=3, envs=[("open_sky", 3), ("tree_cover", 1)])
    on_after_arrival = 20.0                      # the car stands 20 s with the board on, then the ignition goes off
    parked_s = on_after_arrival + args.parked_min * 60.0 + args.drive_off
    route.stop(parked_s)
    city_drive(route, rng, 5000.0, red_lights=4,
               envs=[("open_sky", 6), ("tree_cover", 3), ("urban_canyon", 1)])
    route.stop(rng.uniform(10, 30))
    start_utc = BASE_DATE + timedelta(hours=7, minutes=40, seconds=60 * rng.randint(0, 29))

    track = build_track(route, *ORIGIN)
    # The parking between the trips: the stop that lasts the power cut.
    park = max(range(len(track.arrive)), key=lambda i: track.depart[i] - track.arrive[i])
    power_off = track.arrive[park] + on_after_arrival
    power_on = track.depart[park] - args.drive_off
    heard = power_on + args.boot_delay
    config = ReceiverConfig(vtg=True)
    receiver = Receiver(config, track, random.Random(f"boot_city/noise/{args.seed}"), 1)
    start = start_utc.timestamp()
    writer = NmeaWriter(config.talker, start, config.gst, config.vtg, receiver.gps_prns, receiver.glonass_prns)
    os.makedirs(args.out, exist_ok=True)
    base = os.path.join(args.out, f"boot_city-s{args.seed}-d{args.boot_delay:g}")
    with open(base + ".first.nmea", "w", encoding="ascii", newline="") as first, \
            open(base + ".second.nmea", "w", encoding="ascii", newline="") as second:
        for epoch in receiver.run():
            if epoch.t < power_off:
                first.writelines(writer.lines(epoch))
            elif epoch.t >= heard:
                second.writelines(writer.lines(epoch))
    sampler = TrackSampler(track)
    at_heard = sampler.at(heard)
    spot = (track.lat[park], track.lon[park])
    truth = {
        "seed": args.seed,
        "boot_delay_s": args.boot_delay,
        "drive_off_s": args.drive_off,
        "parked_min": args.parked_min,
        "first_trip_m": round(track.s[park], 3),
        "second_trip_m": round(track.distance_m - track.s[park], 3),
        "before_heard_m": round(at_heard.distance_m - track.s[park], 3),
        "straight_line_before_heard_m": round(geo.local_distance(spot[0], spot[1], at_heard.lat, at_heard.lon), 3)
        if hasattr(geo, "local_distance") else None,
        "parking_spot": {"lat": round(spot[0], 8), "lon": round(spot[1], 8)},
        "power_off_utc": geo.iso_utc(start + power_off),
        "power_on_utc": geo.iso_utc(start + power_on),
        "heard_utc": geo.iso_utc(start + heard),
        "end_utc": geo.iso_utc(start + track.duration_s),
    }
    with open(base + ".truth.json", "w", encoding="utf-8") as out:
        json.dump(truth, out, indent=1)
        out.write("\n")
    print(base)


if __name__ == "__main__":
    main()

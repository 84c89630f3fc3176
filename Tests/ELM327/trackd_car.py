"""trackd's own car for ELM327-emulator (https://github.com/Ircama/ELM327-emulator), merged into the emulator
with its `merge trackd_car` command and chosen with `scenario trackd`.

The emulator's default car has no odometer (PID A6 answers NO DATA) and its 'car' scenario answers A6 with a wrong
service byte (61 instead of 41), so the tests drive this car instead: a car with an odometer whose speed, engine
speed, odometer and battery voltage are what the test last set, through the emulator's own command line:

    emulator.trackd_car.update(speed=50, rpm=1800, odometer=12345.6, volts=14.2)

or follows a drive of the test's, played on the monotonic clock (`time.monotonic()`, CLOCK_MONOTONIC, the clock
trackd and the test read too):

    emulator.trackd_car['drive'] = dict(path='/tmp/.../drive.txt', start=12345.678, pace=1)

where each line of the file is `seconds speed_kmh odometer_km` (seconds of the drive after `start`, which plays
`pace` times faster than the drive did, as the receiver's recording is played); between lines the speed and
the odometer change evenly, as they do in the drive; speed is answered in whole km/h and the odometer in tenths of a
kilometre, as a car does, and the engine speed follows the speed (idling at 800 rpm). Before the first line and
after the last the car stands at that line.

Each answer is built when it is asked for (the emulator's ResponseFooter), so the car follows the test as it
drives. `engine=False` makes the car stop answering (NO DATA to 01 00 and the engine's PIDs, as a car with the
ignition off),
while the adapter still reads the voltage; `fault="CAN ERROR"` (or any text: noise, half an answer) is what those
PIDs answer instead while it is set. Adapters and cars as they come: `headers=True` keeps the adapter's headers on
whatever AT H0 said (a clone that ignores it), `units=2` has the transmission answer 01 A0 first, without the
odometer, `vin_lines=True` sends the VIN in five lines as J1850 and K-line cars do, `search_seconds=8` makes 01 00
search for the protocol that long first (SEARCHING..., a slow-init protocol). Everything else (protocol, supported
PIDs 01-20) is the emulator's default car.
"""

import bisect
import time

from elm.obd_message import (ObdMessage as _emulator_messages, ELM_FOOTER, ECU_ADDR_E, ECU_R_ADDR_E, ECU_R_ADDR_T,
                              HD, SZ, DT, ST, PA)

DEFAULTS = {"speed": 0.0, "rpm": 0.0, "odometer": 12345.6, "volts": 12.4, "engine": True, "fault": None,
            "headers": False, "units": 1, "vin_lines": False, "search_seconds": 0.0}

# The default car's first VIN, and the same in the five numbered messages of J1850 and the K-line (ISO 9141-2,
# ISO 14230-4): each 49 02, its number and four bytes, the first padded with zeros.
VIN = "WP0ZZZ99ZTS390000"
VIN_LINES = ["4902%02X%s" % (number + 1, "".join("%02X" % byte for byte in piece))
             for number, piece in enumerate([b"\0\0\0" + VIN[:1].encode()]
                                             + [VIN[1 + 4 * i:5 + 4 * i].encode() for i in range(4)])]


def _car(emulator):
    if not hasattr(emulator, "trackd_car"):
        emulator.trackd_car = dict(DEFAULTS)
    return emulator.trackd_car


def _drive(car):
    """The drive's speed (km/h) and odometer (km) now, or None without a drive."""
    drive = car.get("drive")
    if not drive:
        return None
    if "rows" not in drive:
        with open(drive["path"]) as profile:
            drive["rows"] = [tuple(float(field) for field in line.split()) for line in profile if line.strip()]
    rows = drive["rows"]
    now = (time.monotonic() - drive["start"]) * drive.get("pace", 1)
    index = bisect.bisect_right([row[0] for row in rows], now)
    if index == 0:
        return rows[0][1], rows[0][2]
    if index == len(rows):
        return rows[-1][1], rows[-1][2]
    (t0, v0, o0), (t1, v1, o1) = rows[index - 1], rows[index]
    share = (now - t0) / (t1 - t0)
    return v0 + (v1 - v0) * share, o0 + (o1 - o0) * share


def _now(emulator, key):
    """What the car reports for `key` now: the drive's value where a drive plays, else what the test set."""
    car = _car(emulator)
    playing = _drive(car)
    if playing is None:
        return car[key]
    speed, odometer = playing
    if key == "speed":
        return speed
    if key == "odometer":
        return odometer
    if key == "rpm":
        return 800 + 25 * speed
    return car[key]


def _answer(emulator, data):
    """A single-frame answer of the engine's control unit, NO DATA while the engine is off, or the fault's text
    (a bus error, noise, half an answer) while one is set."""
    car = _car(emulator)
    _keep_headers(emulator)
    if car.get("fault"):
        return ST(car["fault"])
    if not car["engine"]:
        return ST("NO DATA")
    size = "%02X" % (len(data.split()))
    return HD(ECU_R_ADDR_E) + SZ(size) + DT(data)


def _speed(emulator, cmd, pid, uc_val):
    return _answer(emulator, "41 0D %02X" % max(0, min(255, round(_now(emulator, "speed")))))


def _rpm(emulator, cmd, pid, uc_val):
    quarters = max(0, min(65535, round(_now(emulator, "rpm") * 4)))
    return _answer(emulator, "41 0C %02X %02X" % (quarters >> 8, quarters & 0xFF))


def _odometer(emulator, cmd, pid, uc_val):
    tenths = max(0, min(0xFFFFFFFF, int(_now(emulator, "odometer") * 10 + 1e-6)))
    return _answer(emulator, "41 A6 " + " ".join("%02X" % (tenths >> shift & 0xFF) for shift in (24, 16, 8, 0)))


def _supported_01_20(emulator, cmd, pid, uc_val):
    # The default car's PIDs 01-20 (0C and 0D among them); NO DATA with the ignition off, as a real car. A slow
    # protocol search first, where one is asked for (the adapter says SEARCHING... and answers after it).
    car = _car(emulator)
    if car.get("search_seconds") and car["engine"] and not car.get("fault"):
        time.sleep(car["search_seconds"])
        return ST("SEARCHING...") + _answer(emulator, "41 00 38 3B 80 13")
    return _answer(emulator, "41 00 38 3B 80 13")


def _supported_a1_c0(emulator, cmd, pid, uc_val):
    # Bit 6 of the first byte: PID A6 (the engine's unit). With two units, the transmission's answer comes first.
    engine = _answer(emulator, "41 A0 04 00 00 00")
    if _car(emulator).get("units", 1) > 1 and engine.startswith("<header>"):
        return HD(ECU_R_ADDR_T) + SZ("06") + DT("41 A0 00 00 00 00") + engine
    return engine


def _keep_headers(emulator):
    """Headers on again, whatever AT H0 said, while the car's `headers` is set (a clone that ignores AT H0)."""
    if _car(emulator).get("headers"):
        emulator.counters["cmd_use_header"] = True


def _vin(emulator, cmd, pid, uc_val):
    _keep_headers(emulator)
    if _car(emulator).get("vin_lines"):
        return "".join(ST(line) for line in VIN_LINES)
    return PA("01 " + " ".join("%02X" % ord(character) for character in VIN))


def _volts(emulator, cmd, pid, uc_val):
    return ST("%.1fV" % _car(emulator)["volts"])


ObdMessage = {
    "trackd": {
        # Highest priority (1): these entries come before the default car's own for the same requests.
        "SPEED": {"Request": "^010D" + ELM_FOOTER, "Descr": "Vehicle Speed (trackd's car)", "Header": ECU_ADDR_E,
                  "Priority": 1, "ResponseFooter": _speed},
        "RPM": {"Request": "^010C" + ELM_FOOTER, "Descr": "Engine RPM (trackd's car)", "Header": ECU_ADDR_E,
                "Priority": 1, "ResponseFooter": _rpm},
        "PIDS_A": {"Request": "^0100" + ELM_FOOTER, "Descr": "Supported PIDs [01-20] (trackd's car)",
                   "Header": ECU_ADDR_E, "Priority": 1, "ResponseFooter": _supported_01_20},
        "PIDS_A0": {"Request": "^01A0" + ELM_FOOTER, "Descr": "Supported PIDs [A1-C0] (trackd's car)",
                    "Header": ECU_ADDR_E, "Priority": 1, "ResponseFooter": _supported_a1_c0},
        "ODOMETER": {"Request": "^01A6" + ELM_FOOTER, "Descr": "Odometer (trackd's car)", "Header": ECU_ADDR_E,
                     "Priority": 1, "ResponseFooter": _odometer},
        "ELM_VOLTAGE": {"Request": "^ATRV" + ELM_FOOTER, "Descr": "Battery voltage (trackd's car)", "Priority": 1,
                        "ResponseFooter": _volts},
        "VIN": {"Request": "^0902" + ELM_FOOTER, "Descr": "VIN (trackd's car)", "Header": ECU_ADDR_E, "Priority": 1,
                "ResponseFooter": _vin},
        # The rest of the default car (protocol search, VIN, PIDs 01-20), below these.
        **{key: value for key, value in _emulator_messages["default"].items()
           if key not in ("SPEED", "RPM", "ELM_PIDS_A", "PIDS_A0", "ODOMETER", "ELM_VOLTAGE", "VIN")},
    }
}

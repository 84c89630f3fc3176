/// The keys of the `log:` section: each with its meaning, unit and the values it takes.
enum LogSettings {
    static let all: [Setting<LogConfiguration>] = [
        .number("commit_interval", \.commitInterval, 1...600, "s",
                "while the vehicle moves, track points are committed this often (once it stands, at once)"),
        .number("resume_within", \.resumeWithin, 0...3600, "s",
                "a trip cut by a power loss is resumed if trackd is back within this time, otherwise closed"),
        .flag("exports", \.exports, "refresh the month's CSV and GPX in exports/ after each trip"),
        .number("busy_timeout", \.busyTimeout, 0.1...60, "s",
                "a write waits this long for another program's lock on the log, then waits in memory for the next try"),
        .flag("point_file", \.pointFile,
              "commit the running trip's points to trackd.sqlite-points and move them into the log at the trip's events (off with an uplink)"),
    ]

    static var keys: [String] { all.map(\.key) }
}

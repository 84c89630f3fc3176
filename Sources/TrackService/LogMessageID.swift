/// The journal's `MESSAGE_ID` of the events a driver or an operator looks for, passed as the `message_id` metadata
/// (the journal handler sends it as `MESSAGE_ID`). Fixed for good: `systemd/trackd.catalog` explains each one to
/// `journalctl -x`, and `journalctl MESSAGE_ID=…` finds them.
public enum LogMessageID: String, CaseIterable, Sendable, CustomStringConvertible {
    /// A trip started: by command, at boot (`--auto-start`) or after a power cut too long to resume.
    case tripStarted = "80cc07ce981348bd8f72bf625d0676d7"
    /// A trip ended: stopped by command, or closed at shutdown or after a power cut.
    case tripEnded = "c8a81cdd5703451c8ec2871a54af26a5"
    /// A trip cut by a power loss carries on under its own number.
    case tripResumed = "a5c325efd6bb44e3985aa9411cabda01"
    /// The vehicle has stood still for the idle-alert time (two hours by default) during a trip.
    case idleAlert = "0a04bf6d8dc64ec49cca1274b9d30461"
    /// The GPS source went away (receiver unplugged, gpsd gone).
    case sourceLost = "d6176f7005d3413e8a8e7274ea42de4d"
    /// The GPS source is connected, at start or again after it was lost.
    case sourceConnected = "5a06c75b4b634a04931f4287775d7cad"
    /// The mileage log cannot be written (disk full, read-only, a file-size limit); trackd keeps what it records.
    case storageFailing = "3d9e6c1b62a24ee58f0fc08c1ab98779"
    /// The mileage log can be written again; what trackd kept in memory is stored.
    case storageRecovered = "bb662b7720c84ea99f7c1ecd8fb4d647"
    /// The OBD-II adapter is connected, at start or again after it was lost.
    case obdConnected = "a3ae218490144c5ca60a62a06a096c6d"
    /// The OBD-II adapter went away (unplugged, its Bluetooth or Wi-Fi link dropped, no answer); trips go on by GPS.
    case obdLost = "e3de3a2c46eb4a26a210f2214e5106ad"
    /// The car answers the OBD-II adapter: the ignition is on.
    case obdCarAnswering = "1fce3a6a4fe54c34ac9a8c7c87f1d8f5"
    /// The car stopped answering the OBD-II adapter: the ignition is off, or its bus has a fault.
    case obdCarSilent = "a6459337e09e43559d21b2026419dc99"
    /// The car behind the OBD-II adapter has another VIN than the log's: its odometer is kept out of the log.
    case obdOtherCar = "ab3ac47112b249e9acda65a0a0648bc0"
    /// The engine started (read through the OBD-II adapter).
    case engineStarted = "4d21c42fba7145c6bee9174a81708b2e"
    /// The engine stopped (read through the OBD-II adapter).
    case engineStopped = "a3cee56ca7a5481db598036e8571b271"

    public var description: String { rawValue }
}

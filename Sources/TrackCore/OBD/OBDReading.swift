/// One value read from the car.
public enum OBDReading: Sendable, Hashable {
    /// PID 0D: the car's speed, km/h.
    case speed(kilometresPerHour: Double)
    /// PID 0C: the engine's speed, revolutions a minute (0 with the engine off and the ignition on).
    case engineSpeed(revolutionsPerMinute: Double)
    /// PID A6: the odometer, km.
    case odometer(kilometres: Double)

    /// The reading a parameter's value makes; `nil` for values that are not readings (supported PIDs, the VIN).
    init?(_ value: OBDValue) {
        switch value {
        case .kilometresPerHour(let speed): self = .speed(kilometresPerHour: speed)
        case .revolutionsPerMinute(let rpm): self = .engineSpeed(revolutionsPerMinute: rpm)
        case .kilometres(let kilometres): self = .odometer(kilometres: kilometres)
        case .supported, .vin: return nil
        }
    }
}

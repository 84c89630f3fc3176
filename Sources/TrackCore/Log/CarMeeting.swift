/// What the log makes of the car an OBD-II adapter met, by its VIN.
public enum CarMeeting: Sendable, Hashable {
    /// The log had no VIN: this car's is now its own.
    case recorded
    /// The log's car.
    case thisCar
    /// Another car than the log's (whose VIN this is): its odometer is not the log's.
    case otherCar(logVIN: String)
}

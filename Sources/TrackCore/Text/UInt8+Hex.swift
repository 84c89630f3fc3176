extension UInt8 {
    /// The byte as two upper-case hex digits (`0A`): NMEA checksums, OBD-II commands.
    public var hexDigits: String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(self >> 4)], digits[Int(self & 0x0F)]])
    }
}

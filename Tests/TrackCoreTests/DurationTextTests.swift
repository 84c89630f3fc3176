import Testing
import TrackCore

struct DurationTextTests {
    @Test(arguments: [
        (0.0, "0 s"), (42.4, "42 s"), (59.6, "1 min"), (60, "1 min"), (185, "3 min 5 s"), (3599.4, "59 min 59 s"),
        (3600, "1 h"), (3629, "1 h"), (3631, "1 h 1 min"), (5400, "1 h 30 min"), (7200, "2 h"), (7830, "2 h 11 min"),
    ])
    func saysSecondsUnderAnHourAndMinutesFromAnHourOn(seconds: Double, text: String) {
        #expect(DurationText.of(seconds) == text)
    }

    @Test func aNegativeStretchFromAClockThatSteppedBackIsNoTime() {
        #expect(DurationText.of(-3) == "0 s")
    }
}

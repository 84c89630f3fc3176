import Testing
@testable import TrackCore

struct PlaybackScheduleTests {
    private let second: Int64 = 1_000_000_000

    @Test func spacesSentencesByTheirRecordedTimesDividedBySpeed() {
        var schedule = PlaybackSchedule(speed: 2)
        #expect(schedule.due(timeOfDay: 100 * second) == 0)
        #expect(schedule.due(timeOfDay: nil) == 0)
        #expect(schedule.due(timeOfDay: 101 * second) == 0.5)
        #expect(schedule.due(timeOfDay: nil) == 0.5)
        #expect(schedule.due(timeOfDay: 110 * second) == 5)
    }

    @Test func playsAsFastAsPossibleAtSpeedZero() {
        var schedule = PlaybackSchedule(speed: 0)
        #expect(schedule.due(timeOfDay: 0) == 0)
        #expect(schedule.due(timeOfDay: 3600 * second) == 0)
    }

    @Test func crossesMidnightWithoutWaitingADay() {
        var schedule = PlaybackSchedule(speed: 1)
        _ = schedule.due(timeOfDay: 86_399 * second)
        #expect(schedule.due(timeOfDay: 0) == 1)
    }

    @Test func pacesEveryDayOfALogLongerThanTwoDays() {
        // One sentence a minute from 08:00 on the first day to 20:00 on the fourth: 84 h.
        var schedule = PlaybackSchedule(speed: 100)
        var due = [Double]()
        for minute in 0...(84 * 60) {
            due.append(schedule.due(timeOfDay: (8 * 3600 + Int64(minute) * 60) % 86_400 * second))
        }
        #expect(due[24 * 60] == 24 * 3600 / 100)
        #expect(due[48 * 60] == 48 * 3600 / 100)   // the third day: paced, not played at once
        #expect(due[60 * 60] == 60 * 3600 / 100)
        #expect(due[84 * 60] == 84 * 3600 / 100)
    }

    @Test func restartsTheReferenceWhenTimeRunsBackwards() {
        var schedule = PlaybackSchedule(speed: 1)
        _ = schedule.due(timeOfDay: 1000 * second)
        #expect(schedule.due(timeOfDay: 1010 * second) == 10)
        #expect(schedule.due(timeOfDay: 500 * second) == 10)
        #expect(schedule.due(timeOfDay: 502 * second) == 12)
    }

    @Test func readsTheTimeOfASentenceWithoutTheRest() {
        let bytes = Array(NMEA.sentence("GPGGA,123519.5,,,,,0,00,,,,,,,").utf8)
        let time = bytes.withUnsafeBufferPointer { PlaybackSchedule.timeOfDay(of: $0) }
        #expect(time == (12 * 3600 + 35 * 60 + 19) * second + 500_000_000)
    }
}

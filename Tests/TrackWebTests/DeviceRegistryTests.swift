import Foundation
import Testing
import TestSupport
@testable import TrackWeb
import TrackWebClient

struct DeviceRegistryTests {
    let start = ContinuousClock.now
    let wallTime: Int64 = 1_795_886_895

    @Test func pairsADeviceOnceWithACode() throws {
        let folder = try TemporaryFolder()
        let registry = try DeviceRegistry(path: folder.file("devices.sqlite"))
        let code = registry.newCode(role: .driver, at: start)
        #expect(code.count == 8 && code.allSatisfy(\.isNumber))
        guard case .paired(let device, let token) = try registry.pair(
            code: String(code.prefix(4)) + " " + String(code.dropFirst(4)), deviceName: "Anna's phone", at: start,
            wallTime: wallTime) else {
            Issue.record("the code did not pair")
            return
        }
        #expect(device.name == "Anna's phone" && device.role == .driver && device.revokedAt == nil)
        #expect(try registry.device(token: token, wallTime: wallTime) == device)
        #expect(try registry.pair(code: code, deviceName: "again", at: start, wallTime: wallTime) == .wrongCode(inARow: 1))
    }

    @Test func refusesACodeOlderThanTenMinutes() throws {
        let folder = try TemporaryFolder()
        let registry = try DeviceRegistry(path: folder.file("devices.sqlite"))
        let code = registry.newCode(role: .viewer, at: start)
        #expect(registry.hasPendingCodes(at: start + .seconds(599)))
        #expect(!registry.hasPendingCodes(at: start + .seconds(600)))
        #expect(try registry.pair(code: code, deviceName: "late", at: start + .seconds(600), wallTime: wallTime)
                == .wrongCode(inARow: 1))
    }

    @Test func givesTheCodesRoleToTheDevice() throws {
        let folder = try TemporaryFolder()
        let registry = try DeviceRegistry(path: folder.file("devices.sqlite"))
        let code = registry.newCode(role: .viewer, at: start)
        guard case .paired(let device, _) = try registry.pair(code: code, deviceName: "", at: start, wallTime: wallTime)
        else {
            Issue.record("the code did not pair")
            return
        }
        #expect(device.role == .viewer)
        #expect(device.name == "device")
    }

    @Test func refusesARevokedDeviceAtItsNextRequest() throws {
        let folder = try TemporaryFolder()
        let registry = try DeviceRegistry(path: folder.file("devices.sqlite"))
        guard case .paired(let device, let token) = try registry.pair(
            code: registry.newCode(role: .driver, at: start), deviceName: "phone", at: start, wallTime: wallTime)
        else {
            Issue.record("the code did not pair")
            return
        }
        #expect(try registry.device(token: token, wallTime: wallTime) != nil)
        let revoked = try registry.revoke(id: device.id, wallTime: wallTime + 60)
        #expect(revoked?.revokedAt == wallTime + 60)
        #expect(try registry.device(token: token, wallTime: wallTime + 61) == nil)
        #expect(try registry.revoke(id: 99, wallTime: wallTime) == nil)
    }

    @Test func keepsPairingsAcrossRestartsWithoutStoringTheToken() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("devices.sqlite")
        var token = ""
        do {
            let registry = try DeviceRegistry(path: path)
            guard case .paired(_, let given) = try registry.pair(
                code: registry.newCode(role: .driver, at: start), deviceName: "phone", at: start, wallTime: wallTime)
            else {
                Issue.record("the code did not pair")
                return
            }
            token = given
        }
        let reopened = try DeviceRegistry(path: path)
        #expect(try reopened.device(token: token, wallTime: wallTime)?.name == "phone")
        #expect(try reopened.device(token: String(token.reversed()), wallTime: wallTime) == nil)
        let stored = try sqlite3(path, "SELECT * FROM device")
        #expect(!stored.contains(token))
    }

    @Test func slowsWrongCodesAfterFiveInARowAndANewCodeStartsAgain() throws {
        let folder = try TemporaryFolder()
        let registry = try DeviceRegistry(path: folder.file("devices.sqlite"))
        let code = registry.newCode(role: .driver, at: start)
        let wrong = code == "00000000" ? "00000001" : "00000000"
        var outcomes: [DeviceRegistry.PairingOutcome] = []
        for _ in 0..<20 {
            outcomes.append(try registry.pair(code: wrong, deviceName: "x", at: start, wallTime: wallTime))
        }
        #expect(Array(outcomes.prefix(5)) == (1...5).map { .wrongCode(inARow: $0) })
        #expect(outcomes.dropFirst(5).allSatisfy { $0 == .throttled(retryAfter: .seconds(1)) })
        // Even the right code waits while the throttle holds; someone at the board making a new code lifts it.
        #expect(try registry.pair(code: code, deviceName: "x", at: start, wallTime: wallTime)
                == .throttled(retryAfter: .seconds(1)))
        let fresh = registry.newCode(role: .driver, at: start)
        guard case .paired = try registry.pair(code: fresh, deviceName: "x", at: start, wallTime: wallTime) else {
            Issue.record("a new code did not pair after the throttle was lifted")
            return
        }
    }
}

#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import TrackService

struct ControlAccessTests {
    private let nobody = PeerCredentials(pid: 1, uid: 65_534, gid: 65_534)

    @Test func rootAndTheDaemonsOwnUserMayChangeTheLog() {
        let access = ControlAccess(group: "no-such-group-for-trackd")
        #expect(access.refusal(for: PeerCredentials(pid: 1, uid: 0, gid: 0)) == nil)
        #expect(access.refusal(for: PeerCredentials(pid: 1, uid: geteuid(), gid: getegid())) == nil)
    }

    @Test func anotherUserOutsideTheGroupIsToldWhichGroupToJoin() throws {
        try #require(geteuid() != 65_534, "the tests run as nobody")
        let access = ControlAccess(group: "no-such-group-for-trackd")
        #expect(!access.groupExists)
        let refusal = try #require(access.refusal(for: nobody))
        #expect(refusal.contains("may read the log but not change it"))
        #expect(refusal.contains("'no-such-group-for-trackd' group"))
        #expect(refusal.contains("usermod -aG no-such-group-for-trackd"))
    }

    @Test func aMemberOfTheGroupMayChangeTheLog() throws {
        // nobody's own group is nogroup (Debian): membership through the primary group.
        let access = ControlAccess(group: "nogroup")
        try #require(access.groupExists, "this system has no group 'nogroup'")
        #expect(access.refusal(for: nobody) == nil)
    }

    @Test func aCallerWithoutCredentialsChangesNothing() {
        #expect(ControlAccess(group: "trackd").refusal(for: nil) != nil)
        #expect(ControlAccess.everyone.refusal(for: nil) == nil)
    }
}

/// What the broker's client reports, from libmosquitto's network thread, in the order it happened.
public enum MQTTEvent: Sendable, Hashable {
    /// The broker accepted the connection.
    case connected
    /// The broker refused the connection (CONNACK code and libmosquitto's words for it).
    case refused(code: Int32, reason: String)
    /// The connection ended or could not be made (`code` 0: asked for).
    case disconnected(code: Int32, reason: String)
    /// The broker acknowledged the message with this id (PUBACK).
    case acknowledged(Int32)
}

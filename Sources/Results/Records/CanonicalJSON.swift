import Formats

/// Writes any `Encodable` as canonical JSON: object keys sorted, integers as integers, doubles as
/// the shortest text that reads back as the same double, no locale and no platform in the
/// output — the same value gives the same bytes everywhere. Read it back with any JSON decoder
/// (Foundation's `JSONDecoder` does).
package enum CanonicalJSON {
    /// `value` as a JSON value tree.
    package static func value<T: Encodable>(_ value: T) throws -> JSONValue {
        let encoder = TreeEncoder(codingPath: [])
        try value.encode(to: encoder)
        return encoder.box.value ?? .null
    }

    /// `value` as pretty-printed canonical text with a final newline.
    package static func text<T: Encodable>(_ value: T, pretty: Bool = true) throws -> String {
        try Self.value(value).serialized(pretty: pretty) + "\n"
    }
}

/// A slot that containers fill in later (containers are values; the tree is built by reference).
private final class Box {
    enum Content {
        case none
        case single(JSONValue)
        case keyed(KeyedStore)
        case unkeyed(UnkeyedStore)
    }
    var content: Content = .none
    var value: JSONValue? {
        switch content {
        case .none: return nil
        case let .single(v): return v
        case let .keyed(store): return .object(store.fields.mapValues { $0.value ?? .null })
        case let .unkeyed(store): return .array(store.items.map { $0.value ?? .null })
        }
    }
}

private final class KeyedStore { var fields: [String: Box] = [:] }
private final class UnkeyedStore { var items: [Box] = [] }

private struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) { self.stringValue = stringValue }
    init(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }
}

private struct TreeEncoder: Encoder {
    var codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    let box = Box()

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let store: KeyedStore
        if case let .keyed(existing) = box.content {
            store = existing
        } else {
            store = KeyedStore()
            box.content = .keyed(store)
        }
        return KeyedEncodingContainer(Keyed<Key>(store: store, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let store: UnkeyedStore
        if case let .unkeyed(existing) = box.content {
            store = existing
        } else {
            store = UnkeyedStore()
            box.content = .unkeyed(store)
        }
        return Unkeyed(store: store, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { Single(box: box, codingPath: codingPath) }
}

/// Encodes one value into a box: primitives directly, everything else through its own `encode`.
private func encodeValue<T: Encodable>(_ value: T, into box: Box, path: [any CodingKey]) throws {
    if let leaf = leaf(value) {
        box.content = .single(leaf)
        return
    }
    let encoder = TreeEncoder(codingPath: path)
    try value.encode(to: encoder)
    box.content = encoder.box.content
    if case .none = box.content { box.content = .single(.object([:])) }
}

private func leaf(_ value: Any) -> JSONValue? {
    switch value {
    case let v as Bool: return .bool(v)
    case let v as String: return .string(v)
    case let v as Double: return .exact(v)
    case let v as Float: return .exact(Double(v))
    case let v as Int: return .int(v)
    case let v as Int8: return .int(Int(v))
    case let v as Int16: return .int(Int(v))
    case let v as Int32: return .int(Int(v))
    case let v as Int64: return .int(Int(v))
    case let v as UInt: return Int(exactly: v).map(JSONValue.int) ?? .string(String(v))
    case let v as UInt8: return .int(Int(v))
    case let v as UInt16: return .int(Int(v))
    case let v as UInt32: return .int(Int(v))
    case let v as UInt64: return Int(exactly: v).map(JSONValue.int) ?? .string(String(v))
    default: return nil
    }
}

private struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let store: KeyedStore
    var codingPath: [any CodingKey]

    private func slot(_ key: Key) -> Box {
        let box = Box()
        store.fields[key.stringValue] = box
        return box
    }

    mutating func encodeNil(forKey key: Key) throws { slot(key).content = .single(.null) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try encodeValue(value, into: slot(key), path: codingPath + [key])
    }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        let store = KeyedStore()
        slot(key).content = .keyed(store)
        return KeyedEncodingContainer(Keyed<NestedKey>(store: store, codingPath: codingPath + [key]))
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let store = UnkeyedStore()
        slot(key).content = .unkeyed(store)
        return Unkeyed(store: store, codingPath: codingPath + [key])
    }
    mutating func superEncoder() -> any Encoder { superEncoder(forKey: Key(stringValue: "super")!) }
    mutating func superEncoder(forKey key: Key) -> any Encoder {
        let encoder = TreeEncoder(codingPath: codingPath + [key])
        store.fields[key.stringValue] = encoder.box
        return encoder
    }
}

private struct Unkeyed: UnkeyedEncodingContainer {
    let store: UnkeyedStore
    var codingPath: [any CodingKey]
    var count: Int { store.items.count }

    private func slot() -> Box {
        let box = Box()
        store.items.append(box)
        return box
    }

    mutating func encodeNil() throws { slot().content = .single(.null) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        try encodeValue(value, into: slot(), path: codingPath + [AnyKey(intValue: count)])
    }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<
        NestedKey
    > {
        let store = KeyedStore()
        slot().content = .keyed(store)
        return KeyedEncodingContainer(Keyed<NestedKey>(store: store, codingPath: codingPath))
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let store = UnkeyedStore()
        slot().content = .unkeyed(store)
        return Unkeyed(store: store, codingPath: codingPath)
    }
    mutating func superEncoder() -> any Encoder {
        let encoder = TreeEncoder(codingPath: codingPath)
        store.items.append(encoder.box)
        return encoder
    }
}

private struct Single: SingleValueEncodingContainer {
    let box: Box
    var codingPath: [any CodingKey]
    mutating func encodeNil() throws { box.content = .single(.null) }
    mutating func encode<T: Encodable>(_ value: T) throws { try encodeValue(value, into: box, path: codingPath) }
}

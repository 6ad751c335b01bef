// A side-effect trap: cargo runs build scripts when it builds; juju never does.
fn main() {
    std::fs::write("pwned-cargo", "ran").unwrap();
}

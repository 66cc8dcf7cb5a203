fn main() {
    app::mount_compare();
}

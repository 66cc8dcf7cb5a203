fn main() {
    app::mount_export();
}

fn main() {
    app::mount_routes();
}

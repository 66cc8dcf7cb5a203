fn main() {
    app::mount_embed();
}

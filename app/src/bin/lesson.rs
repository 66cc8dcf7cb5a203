fn main() {
    app::mount_lessons();
}

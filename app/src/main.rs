fn main() {
    app::mount();
}

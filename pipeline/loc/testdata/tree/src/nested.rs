/* outer /* inner */ still outer */
fn main() {
    let s = "/* not a comment";
    // line comment
    /*
     * /* nested
     * */
     */
    println!("{}", s);
}

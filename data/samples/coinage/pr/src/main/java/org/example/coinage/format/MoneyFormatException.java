package org.example.coinage.format;

/** Text that is not money. CGEP-3, "Parsing". */
public class MoneyFormatException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public MoneyFormatException(String text, String what) {
        super("bad money '" + text + "': " + what);
    }
}

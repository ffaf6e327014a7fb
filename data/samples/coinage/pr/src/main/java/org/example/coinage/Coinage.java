package org.example.coinage;

/** Facts about the library itself. */
public final class Coinage {
    /** The library's version. */
    public static final String VERSION = "1.3.0";

    private Coinage() {
    }
}

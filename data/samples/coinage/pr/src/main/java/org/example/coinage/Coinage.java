package org.example.coinage;

/** Facts about the library itself. */
public final class Coinage {
    private Coinage() {
    }

    /** The library's version. */
    public static String version() {
        return "1.3.0";
    }
}

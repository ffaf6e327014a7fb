package org.example;

public class Config {
    public static final String NAME = "config";
    public static final int MAX_SIZE = 10, MIN_SIZE = 1;
    protected static final int RETRIES = 3;
    private int count;
    public long timeout;
    @Deprecated
    public String legacy;

    public String get(String key) {
        int local = 0;
        Object o = new Object() { public int anon; };
        return key;
    }

    public interface Keys {
        String HOST = "host";
    }

    public enum Mode {
        FAST, SAFE("safe") {
            int inBody;
        };
        public final String label = "m";
        Mode() { this("x"); }
        Mode(String s) {}
    }

    static class Hidden {
        public int visible;
    }
}

class PackagePrivate {
    public int x;
}

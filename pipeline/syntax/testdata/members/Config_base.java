package org.example;

public class Config {
    public static final String NAME = "config";

    public String get(String key) {
        return key;
    }
}

package org.example.coinage;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class CoinageTest {
    @Test
    void versionIsOnePointThree() {
        assertEquals("1.3.0", Coinage.version());
    }
}

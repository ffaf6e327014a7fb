package org.example.coinage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class CurrencyTest {
    @Test
    void internsByCode() {
        assertSame(Currency.EUR, Currency.of("EUR"));
        assertEquals(0, Currency.of("JPY").digits());
        assertEquals(3, Currency.BHD.digits());
    }

    @Test
    void refusesUnknownCodes() {
        assertEquals("unknown currency XYZ", assertThrows(IllegalArgumentException.class, () -> Currency.of("XYZ")).getMessage());
    }
}

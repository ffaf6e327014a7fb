package org.example.coinage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@DisplayName("Money.allocate")
class AllocationTest {
    private static List<Money> cents(Currency c, long... minor) {
        Money[] out = new Money[minor.length];
        for (int i = 0; i < minor.length; i++) {
            out[i] = Money.ofMinor(minor[i], c);
        }
        return List.of(out);
    }

    @Test
    @DisplayName("leftover cents go to the first parts")
    void leftoverGoesFirst() {
        assertEquals(cents(Currency.EUR, 34, 33, 33), Money.of("1.00", Currency.EUR).allocate(1, 1, 1));
    }

    @ParameterizedTest(name = "{0} split {1}:{2}")
    @CsvSource({"0.05, 3, 7, 2, 3", "10.00, 1, 3, 250, 750", "0.03, 0, 1, 0, 3", "1.00, 2, 1, 67, 33"})
    void splitsByRatio(String amount, int a, int b, long first, long second) {
        assertEquals(cents(Currency.USD, first, second), Money.of(amount, Currency.USD).allocate(a, b));
    }

    @Test
    void keepsTheCurrencyAndTheSum() {
        List<Money> parts = Money.ofMinor(1001, Currency.JPY).allocate(3, 3, 3);
        assertEquals(cents(Currency.JPY, 334, 334, 333), parts);
        assertEquals(Money.ofMinor(1001, Currency.JPY), parts.get(0).plus(parts.get(1)).plus(parts.get(2)));
    }

    @ParameterizedTest
    @CsvSource(value = {"'', no ratios", "'1,-1', negative ratio -1", "'0,0', ratios sum to zero"}, quoteCharacter = '\'')
    void refusesBadRatios(String ratios, String message) {
        int[] r = ratios.isEmpty() ? new int[0] : java.util.Arrays.stream(ratios.split(",")).mapToInt(Integer::parseInt).toArray();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Money.ofMinor(100, Currency.EUR).allocate(r));
        assertEquals(message, e.getMessage());
    }
}

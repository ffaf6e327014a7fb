package org.example.coinage.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.example.coinage.Currency;
import org.example.coinage.Money;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

@DisplayName("MoneyFormat.parse")
class MoneyParseTest {
    @ParameterizedTest
    @ValueSource(strings = {"12.50 EUR", "EUR 12.50", "  12.5   EUR ", "EUR\t12.5"})
    void readsAmountAndCodeInEitherOrder(String text) {
        assertEquals(Money.of("12.50", Currency.EUR), MoneyFormat.parse(text));
    }

    @Test
    void readsNegativeAmountsAndWholeYen() {
        assertEquals(Money.ofMinor(-310, Currency.USD), MoneyFormat.parse("-3.10 USD"));
        assertEquals(Money.ofMinor(1200, Currency.JPY), MoneyFormat.parse("JPY 1200"));
    }

    @Test
    void readsWhatItWrites() {
        Money m = Money.ofMinor(-123456, Currency.BHD);
        assertEquals(m, MoneyFormat.parse(MoneyFormat.PLAIN.format(m)));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(value = {"12.50|bad money '12.50': no currency", "12.50 XYZ|bad money '12.50 XYZ': unknown currency XYZ",
        "EUR 1.005|bad money 'EUR 1.005': too many decimals for EUR (2)", "ten EUR|bad money 'ten EUR': not a number",
        "1 EUR now|bad money '1 EUR now': too many words"}, delimiter = '|')
    void namesWhatIsWrong(String text, String message) {
        MoneyFormatException e = assertThrows(MoneyFormatException.class, () -> MoneyFormat.parse(text));
        assertEquals(message, e.getMessage());
    }
}

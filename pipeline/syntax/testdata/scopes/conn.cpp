#include <string>

namespace net {

class Conn {
public:
    Conn();
    void send(const std::string& s);
    int fd() const { return fd_; }
    struct Stats {
        void reset();
    };
private:
    int fd_;
};

Conn::Conn() : fd_(-1) {
    open();
}

void Conn::send(const std::string& s) {
    auto log = [&](int n) { write(fd_, s.data(), n); };
    log(1);
}

}  // namespace net

void net::Conn::Stats::reset() {
    count = 0;
}

void A::B::f() {
    touch();
}

template <typename T>
T Box<T>::get() const {
    return value;
}

bool Conn::operator==(const Conn& o) const {
    return same;
}

int main() { return 0; }

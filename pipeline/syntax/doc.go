// Package syntax resolves changed lines to their (class, function) scopes
// with tree-sitter, and finds the classes and functions a change
// introduces. Rule 27 maps every changed function to an EP section and
// exempts file-level lines; the test audit rejects tests that use new
// symbols the EP does not name; the spec variant lists new public
// signatures (paper, sections 3.2 and 4). All of them read this package's
// output.
//
// # Scopes
//
// A changed line's scope is the innermost named function whose lines
// contain it, and that function's class. Deleted lines are resolved on the
// pre-change tree, added lines on the post-change tree (rule 27). A line in
// a class body outside every function (a field, an enum constant, a Go
// struct field, a class attribute, a class's own header) is in its class's
// class-body scope: the innermost class, and an empty function (issue 12;
// the paper's rule 27 exempts only file-level changes). A line outside
// every function and class is file-level: empty class and function. A
// function wins over a class at any depth: a class declared inside a
// function is part of that function's scope, but for its own methods.
// When one entity ends on the line where the next starts, the later one
// wins.
//
// An entity's lines run from its first decorator, annotation or attribute
// (and from its export, template<...> or "const x =" wrapper) to its last
// line. Comments before a definition are not part of it, so a changed doc
// comment is file-level (a Python docstring, being inside, is not). A
// blank or comment line inside a class body outside every function is the
// class's class-body scope when the next line of code in the class is the
// body's own (a comment between fields, "# Metadata 2.4 - PEP 639" in a
// TypedDict) or there is none, and file-level when that line starts a
// method or a nested class (its doc comment).
//
// # Naming rules
//
// Class is the innermost type-like container: class, struct, union,
// interface, enum, record, trait or impl block, and for a Go method its
// receiver's base type. Function is the innermost named function, method,
// constructor or the like. Names are dotted from the outside in: a nested
// class is Outer.Inner, a function nested in a function is outer.inner,
// and a method's function name is its own name, with its class in Class.
//
// The class path counts classes only: a class declared inside a function
// is named by the classes around it, not by the function (Python "def f():
// class L" gives class L; inside a method of Outer it gives Outer.L), and
// the functions inside it start a new function path. Namespaces, packages
// and modules are never classes.
//
// Lambdas, closures, function literals and anonymous functions are not
// named: their lines belong to the enclosing named function. The one
// exception, in TypeScript and JavaScript only, is a function value bound
// to a name, which is a function of that name: const foo = () => {}, let
// foo = function () {}, foo = function () {}, obj.foo = () => {} and
// exports.foo = ... (named foo: the last property), a class field
// handler = () => {}, and an object literal member foo: () => {} or
// foo() {}. A class expression bound to a name (const Foo = class {}) is a
// class of that name. An unnamed class (a Java anonymous class, a Java
// enum constant's body, an unnamed JavaScript class expression) is not
// named either, and nothing inside it is: its lines belong to the
// enclosing named function.
//
// Per language:
//
//   - Python: classes, def and async def (nested ones dotted); decorators
//     belong to what they decorate; __init__ is a constructor; lambdas are
//     not named. Exported: the name has no leading underscore, or is a
//     dunder name.
//   - Go: struct and interface type declarations are classes; func (s
//     *Server) Start() is class Server, function Start, and generic
//     receivers (l *List[T]) give List; interface methods are functions of
//     their interface; function literals are not named. Exported: an
//     upper-case name, for methods also an upper-case receiver type.
//   - Java: classes, interfaces, enums, records and annotation types are
//     classes; methods, constructors and compact record constructors are
//     functions (a constructor's name is its class's); annotations belong
//     to what they annotate; lambdas and anonymous classes are not named.
//     Exported: a public modifier, or no modifier in an interface.
//   - Rust: structs, enums, unions and traits are classes; impl Foo {} and
//     impl Trait for Foo {} are classes named Foo (impl blocks are not new
//     symbols); trait default methods and required signatures have the
//     trait as class; mod blocks are not classes; #[...] attributes belong
//     to the item after them; closures are not named. Exported: exactly
//     pub (pub(crate) is not), a member of a pub trait, or a method of a
//     trait impl; the enclosing modules' visibility is not checked.
//   - C: structs, unions and enums with a body are classes (typedef struct
//     {...} T is class T); function definitions and top-level prototypes
//     are functions; a pointer to a function is not. Exported: not static.
//   - C++ (and all headers, "C/C++ Header"): as C plus classes; member
//     declarations (void f();) and definitions are functions of their
//     class; constructors are named like the class, destructors ~A,
//     operators operator== and operator int; template<...> belongs to what
//     it declares; lambdas are not named. An out-of-line definition void
//     A::B::f() is class A.B, function f. Namespaces are not classes, but
//     a qualifier cannot tell a namespace from a class: leading qualifiers
//     are dropped when the file declares a namespace of that name
//     (namespace net {...} makes void net::Conn::send() class Conn), and
//     kept as classes otherwise. Exported: members by the access specifier
//     in effect (class members start private, struct and union members
//     public); anything else unless static.
//   - TypeScript and JavaScript (TSX with the tsx grammar): classes,
//     abstract classes, interfaces and enums are classes; functions,
//     generators, overload signatures, methods, getters and setters
//     (sharing one name), interface method signatures and the bound
//     function values above are functions; constructor is the constructor;
//     namespaces are not classes; method decorators belong to the method.
//     Exported: an export statement, or exports.x = ...; class members
//     unless private, protected or #private, when their class is exported.
//   - C#: classes, structs, interfaces, enums and records (record struct
//     too) are classes; methods, constructors (named like the class),
//     destructors (~A), properties and events (with their get, set, add
//     and remove accessors, named by the property), indexers ("this"),
//     operators ("operator+", "operator int") and local functions (dotted
//     under their method) are functions; namespaces are not classes;
//     attributes belong to what they decorate; lambdas and anonymous
//     methods are not named. Exported: a public modifier, or no modifier
//     in an interface.
//
// Everywhere, a member is exported only if its classes are, and nothing
// inside a function is exported. Bodiless declarations inside a function
// (local prototypes, or C++ variables the grammar takes for one) are not
// entities.
//
// # New entities
//
// A file's new entities are its post-change entities whose (class,
// function) name no pre-change entity has; a renamed file is compared with
// its old path. Overloads share a name, so an added overload of an
// existing function is not new. A Scope is New when a new entity has its
// (class, function): a class-body scope when its class is new; file-level
// scopes never are.
//
// # Members
//
// Parser.Members lists a file's data members: module-level constants and
// variables, and the fields, constants, class attributes and enum
// constants declared directly in a named class's body, each with its
// class (named as Entity.Class names it), lines, exported flag and a
// one-line declaration whose long value is cut ("{…}", "frozenset(…)", or
// a prefix and "…"). Nothing declared inside a function, a method, an
// initializer block, an anonymous class or another member's value is a
// member. NewMembers lists the exported members a change adds: new by
// qualified name and declared on an added line (issue 12: statistics and
// the spec variant's signatures include them). Per language:
//
//   - Python: NAME = v, NAME: T = v and NAME: T (TypedDict and dataclass
//     fields) at module level and in class bodies, inside if and try
//     blocks too; every target of A = B = v and A, B = v. Kind "field" in
//     a class, else "constant" for an upper-case name and "variable".
//     Exported: no leading underscore, its classes too; dunder names
//     (__all__, __slots__) are never members.
//   - Go: top-level const and var specs (kinds "constant", "variable";
//     every name of a, B = 1, 2), and the fields of struct type
//     declarations, an embedded field named by its type (*pkg.T gives
//     T). Exported: an upper-case name, in an upper-case struct. Fields of
//     anonymous structs belong to their field's or variable's declaration.
//   - Java: fields, interface constants and enum constants of named
//     classes, interfaces, enums, records and annotation types. Kind
//     "constant" for static final fields and interface fields, "enum
//     constant", else "field". Exported: public, or no modifier in an
//     interface, in an exported class (as for methods: protected is not
//     public API); enum constants as their enum. Record components are
//     not members.
//   - Rust: const and static items (kinds "constant", "variable") at
//     module level, in mod blocks, impl blocks and traits; named struct and
//     union fields; enum variants (kind "variant"). Exported: exactly pub,
//     trait members and a trait impl's consts as the trait, variants as
//     their enum.
//   - TypeScript and JavaScript: module-level const (kind "constant"),
//     let and var declarators, exported when an export statement wraps
//     them (export {a} lists and exports.x are not read); class fields,
//     TypeScript interface properties and enum members, exported with an
//     exported class unless private, protected or #private. A declarator or
//     field whose value is a function or a class is a function, not a
//     member. Namespaces are blocks.
//   - C#: fields, const and static readonly fields (kind "constant"),
//     event fields and enum members of classes, structs, records,
//     interfaces and enums. Exported: public, or no modifier in an
//     interface; enum members as their enum. Properties are functions.
//   - C and C++ have no member rules: Members returns ErrUnsupported and
//     NewMembers lists no member for their files.
//
// Members are found by one query per language of one-node patterns and a
// stack walk over the captures, as definitions are; declarations are read
// from a bounded prefix of the source, so a huge literal costs one scan.
//
// Resolve names, for each changed class body, the members its changed
// lines fall in (Scope.Members): a member's declaration, the blank and
// comment lines right before it, and in Python its attribute docstring
// (a string statement on the next line, PEP 257). A mapping's member rows
// (Class | member) own these lines (rules 27 and 28, pipeline/mutation's
// Owners).
//
// # Performance and hostile input
//
// Definitions are found with one tree-sitter query per language, which
// walks the tree in C; only the matches cross into Go. Every query pattern
// is one node (or a short run of siblings: decorators, attributes), and
// what needs a parent or a child is read in Go by the grammar's hook: a
// pattern that waits for a child after a deep sibling keeps one cursor
// state open per nesting level, which made hostile nesting quadratic.
// Naming then runs over the matches sorted by position with an explicit
// stack of open containers, so no step recurses on the input's nesting
// depth, and dotted paths are clipped so that memory stays linear in it.
//
// Resolve runs Options.Workers goroutines (GOMAXPROCS by default), each
// with one Parser and one diff.Repo. A worker decodes each commit's trees
// once per change (diff.Repo.ReadFile would decode every tree on the path
// for every file) and checks a blob's size before reading it. Trees,
// cursors and parsers are closed explicitly: their finalizers would free C
// memory only at some later garbage collection. A file whose change
// touches a class body runs the member query on the same tree (no second
// parse) to name the members its lines fall in. The query walk costs about
// 40% of a parse and the rest of the naming about 20%, so Resolve takes
// about 1.6 times the bare parse of the same files (BenchmarkResolve,
// BenchmarkBareParse).
//
// Files larger than Options.MaxFileSize on either side (2 MiB by default)
// and parses longer than Options.ParseTimeout (30 s) are skipped and
// reported, as are binary changes, unreadable files and languages without
// a grammar. Names and signatures are made valid UTF-8 and bounded in
// length.
package syntax

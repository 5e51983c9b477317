/**
 * Frequent given names and family names of the populations an Italian / EU obliged entity screens
 * (Europe, the Americas, the Middle East, South and East Asia, Africa). A token found here is an
 * established name: a query token in this set that differs from a listed token is a different
 * name, not a typo of it ("Mary" is not a misspelt "Mark"). Lower-case ASCII, as normalised.
 */
const GIVEN = `
james mary robert patricia michael jennifer william linda david elizabeth richard barbara joseph susan thomas jessica
charles sarah christopher karen daniel lisa matthew nancy anthony betty mark sandra paul ashley steven emily andrew donna
kenneth michelle joshua carol kevin amanda brian melissa george deborah timothy laura edward stephanie jason rebecca
jeffrey sharon ryan cynthia jacob kathleen gary amy nicholas anna eric shirley jonathan angela stephen helen larry
emma justin brenda scott pamela brandon nicole benjamin samantha samuel katherine gregory christine frank debra
alexander rachel raymond carolyn patrick janet jack catherine dennis maria jerry heather tyler diane aaron ruth jose
julie adam olivia henry joyce nathan virginia douglas victoria zachary kelly peter lauren kyle christina ethan joan
walter evelyn noah judith jeremy megan christian andrea keith cheryl roger hannah terry jacqueline gerald martha harold
gloria sean teresa austin ann carl sara arthur madison lawrence frances dylan kathryn jesse janice jordan jean bryan
abigail billy alice joe julia bruce judy gabriel sophia logan grace albert denise willie amber alan doris juan marilyn
wayne danielle elijah beverly randy isabella roy theresa vincent diana ralph natalie eugene brittany russell charlotte
bobby marie mason kayla philip alexis louis lori
giulia marco francesca luca chiara matteo sofia lorenzo alessandro alessandra andrea francesco giuseppe giovanni
antonio mario luigi paolo roberto stefano angelo salvatore vincenzo pietro domenico bruno carlo franco sergio giorgio
massimo fabio simone davide federico riccardo gabriele emanuele nicola claudio enrico valentina elena silvia federica
martina paola roberta laura anna rosa lucia giovanna cristina simona barbara monica daniela alessia serena ilaria
hans klaus ingrid peter wolfgang jurgen dieter uwe stefan thomas michael andreas frank markus christian sabine petra
ursula monika heike karin gabriele birgit katrin lukas leon jonas felix maximilian
pierre camille jean michel philippe alain nicolas christophe patrick francois laurent frederic sebastien julien
isabelle nathalie sylvie catherine francoise valerie sandrine celine sophie
juan lucia pablo carmen jose manuel antonio francisco javier miguel rafael pedro angel alejandro fernando jorge carlos
luis sergio alberto diego mateo santiago valentina isabel dolores pilar josefa rosario teresa mercedes
joao ana maria jose antonio francisco paulo pedro lucas gabriel rafael luiz fernanda juliana mariana beatriz
olga igor natalia sergei sergey dmitry dmitri andrei andrey alexei alexey aleksei aleksey nikolai nikolay vladimir
ivan mikhail yuri yury oleg pavel anatoly viktor boris tatiana tatyana irina svetlana ekaterina yelena elena marina
anastasia yulia oksana ludmila
piotr agnieszka tomasz katarzyna krzysztof andrzej jan stanislaw marek pawel michal malgorzata magdalena ewa barbara
wei mei li ming hui jing yan ying hong jun lei tao hao jie xin yu hiroshi yuki takashi kenji akira yoko keiko haruto
minjun seojun jiwoo minji seoyeon
priya rahul arjun sanjay amit anil sunil rajesh ramesh suresh vijay deepak anita sunita pooja neha ravi krishna
fatima omar aisha yusuf leila layla mariam maryam zainab khadija hamza bilal tariq karim nadia samira yasmin
emeka ngozi kwame ama chinedu oluwaseun adebayo fatou aminata mamadou ibrahima moussa
lars astrid sven eva erik karl nils anders per ingrid kerstin birgitta lena johan magnus
nikos eleni giorgos dimitris konstantinos maria georgios
mehmet ayse mustafa fatma emine hatice ahmet huseyin
`;

const FAMILY = `
smith johnson williams brown jones miller davis wilson anderson taylor thomas moore jackson martin thompson white
harris clark lewis robinson walker young allen king wright scott green baker adams nelson hill campbell mitchell
roberts carter phillips evans turner parker collins edwards stewart morris murphy cook rogers morgan cooper peterson
reed bailey bell kelly howard ward cox richardson wood watson brooks bennett gray james hughes price sanders myers
long ross foster powell jenkins perry russell sullivan fisher henderson coleman simmons patterson jordan reynolds
hamilton graham wallace west cole hayes gibson ellis stevens murray ford marshall owens mcdonald harrison kennedy
wells alexander griffin black warren shaw byrne kelly oconnor ryan walsh obrien doyle mccarthy
rossi russo ferrari esposito bianchi romano colombo ricci marino greco bruno gallo conti deluca costa giordano
mancini rizzo lombardi moretti barbieri fontana santoro mariani rinaldi caruso ferrara galli martini leone longo
gentile martinelli vitale lombardo serra coppola desantis dangelo marchetti parisi villa conte ferraro ferri fabbri
muller schmidt schneider fischer weber meyer wagner becker schulz hoffmann schafer koch bauer richter klein wolf
schroder neumann schwarz zimmermann braun kruger hofmann hartmann lange schmitt werner krause meier lehmann
dubois durand lefebvre moreau laurent simon michel leroy roux david bertrand morel fournier girard bonnet dupont
lambert fontaine rousseau vincent muller lefevre faure andre mercier blanc guerin boyer garnier chevalier
fernandez gomez diaz alvarez romero navarro garcia rodriguez martinez hernandez lopez gonzalez perez sanchez ramirez
torres flores rivera ruiz moreno jimenez munoz alonso gutierrez castillo ortiz morales ramos vazquez castro suarez
silva santos oliveira pereira costa souza rodrigues ferreira almeida carvalho gomes lima araujo ribeiro martins
kowalski nowak wisniewski wojcik kowalczyk kaminski lewandowski zielinski szymanski wozniak dabrowski
novak svoboda novotny dvorak horvat kovacs nagy toth szabo horvath varga kiss molnar
jensen nielsen hansen pedersen andersen johansson larsson karlsson nilsson eriksson olsen berg lindqvist
virtanen korhonen nieminen makinen
ivanov smirnov kuznetsov popov vasiliev petrov sokolov mikhailov novikov fedorov morozov volkov alekseev lebedev
semenov egorov pavlov kozlov stepanov nikolaev orlov andreev makarov nikitin zakharov
papadopoulos papadakis georgiou nikolaidis
tanaka suzuki watanabe sato takahashi ito yamamoto nakamura kobayashi kato yoshida yamada sasaki yamaguchi
wang li zhang liu chen yang huang zhao wu zhou xu sun ma zhu hu guo he lin luo gao
kim lee park choi jung kang cho yoon jang lim
nguyen tran le pham hoang phan vu dang bui do
patel sharma gupta singh kumar shah mehta joshi reddy rao iyer nair das verma mishra
okafor mensah okonkwo adeyemi owusu boateng diallo traore keita kamara
yilmaz kaya demir sahin celik yildiz yildirim ozturk aydin ozdemir arslan dogan
`;

const words = (s: string) => s.split(/\s+/).filter(Boolean);

export const COMMON_GIVEN_NAMES = new Set(words(GIVEN));
export const COMMON_FAMILY_NAMES = new Set(words(FAMILY));

/** Given or family name frequent in the population (not a measure of how often it is listed). */
export function isPopulationName(t: string): boolean {
  return COMMON_GIVEN_NAMES.has(t) || COMMON_FAMILY_NAMES.has(t);
}
